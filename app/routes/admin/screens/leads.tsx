import { useQuery } from '@tanstack/react-query'
import { App, Form, Select } from 'antd'
import type { z } from 'zod'
import type { LeadView, PlanView, VersionView } from '#server/modules/tuition/tuition.schema.ts'
import { OfferBody } from '#shared/api/tuition.ts'
import { leadStateNames } from '#shared/tuition-names.ts'
import { api } from '../lib/client.ts'
import { actionsColumn, idColumn, stateColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { when, yuan } from '../lib/format.ts'
import { zodRule } from '../lib/zod-rule.ts'

type Lead = z.infer<typeof LeadView>
type Plan = z.infer<typeof PlanView>
type Version = z.infer<typeof VersionView>
type Offer = { plan_id: number; template_version_id: number | null }

const stateColor: Record<Lead['state'], string> = {
  new: 'blue',
  contacted: 'gold',
  offered: 'purple',
  enrolled: 'green',
  lost: 'default',
}

/**
 * Leads from /form/1 and /form/2 (issue 15 §1): by state and text; staff note a call, give one up, or offer the
 * programme under a plan and a published contract version, and copy the link the learner opens.
 */
export default function Leads() {
  const { modal } = App.useApp()
  const confirm = useDangerConfirm()
  const editor = useEditor<Lead, Offer>('offer', () => ({}))
  const plans = useQuery({
    queryKey: ['tuition-plans'],
    queryFn: () => api.get<{ list: Plan[] }>('/admin/tuition-plans'),
  })
  const templates = useQuery({
    queryKey: ['contract-templates'],
    queryFn: () => api.get<{ list: { id: number; name: string; versions: Version[] }[] }>('/admin/contract-templates'),
  })
  const leads = tableKey('/admin/leads')
  const mark = useWrite(
    (v: { id: number; state: 'contacted' | 'lost' }) => api.patch(`/admin/leads/${v.id}`, { state: v.state }),
    '已更新',
    [leads],
  )
  const offer = useWrite(
    async (v: Offer) => {
      const r = await api.post<{ link: string }>('/admin/enrolments/offer', { ...v, lead_id: editor.editing!.id })
      modal.success({ title: '已发送报名', content: `请把链接发给学员：${location.origin}${r.link}` })
      return r
    },
    '已发送报名',
    [leads],
  )
  const published = (templates.data?.list ?? []).flatMap((t) =>
    t.versions.filter((v) => v.published).map((v) => ({ value: v.id, label: `${t.name} · 第 ${v.version} 版` })),
  )

  return (
    <>
      <ConsoleTable<Lead>
        title="报名线索"
        path="/admin/leads"
        filters={[selectFilter('state', '状态', leadStateNames)]}
        empty="还没有线索。学员在 /form/1、/form/2 提交后会出现在这里。"
        columns={[
          idColumn('ID', 80),
          { title: '姓名', dataIndex: 'name' },
          { title: '手机号', dataIndex: 'phone' },
          { title: '表单', key: 'form', render: (_, r) => (r.form === 1 ? '报名' : '咨询') },
          {
            title: '意向',
            key: 'interest',
            render: (_, r) => r.interest || (r.course_id ? `课程 ${r.course_id}` : ''),
          },
          { title: '联系时间', dataIndex: 'contact_time' },
          { title: '来源', dataIndex: 'sp' },
          stateColumn('状态', 'state', leadStateNames, stateColor),
          {
            title: '提交',
            key: 'updated_at',
            sorter: true,
            render: (_, r) => `${when(r.updated_at)}（${r.submissions} 次）`,
          },
          ...actionsColumn<Lead>((r) =>
            r.state === 'enrolled' ? null : (
              <>
                {r.state === 'new' ? <a onClick={() => mark.mutate({ id: r.id, state: 'contacted' })}>已联系</a> : null}
                <a onClick={() => editor.open(r)}>发报名</a>
                {r.state !== 'lost' ? (
                  <a
                    onClick={() =>
                      confirm({
                        title: `将线索「${r.name}」标记为流失？`,
                        okText: '标记流失',
                        run: () => mark.mutateAsync({ id: r.id, state: 'lost' }),
                      })
                    }
                  >
                    流失
                  </a>
                ) : null}
              </>
            ),
          ),
        ]}
      />
      <FormDialog<Offer>
        {...editor.dialog}
        title={editor.editing ? `发报名：${editor.editing.name}（${editor.editing.phone}）` : ''}
        save={offer}
        footnote="学员用这个手机号登录后，按链接签署合同并缴费。"
      >
        <Form.Item label="学费方案" name="plan_id" rules={[zodRule(OfferBody.shape.plan_id)]}>
          <Select
            options={(plans.data?.list ?? [])
              .filter((p) => p.active)
              .map((p) => ({ value: p.id, label: `${p.title} · ${yuan(p.total_fen)}（课程 ${p.course_id}）` }))}
          />
        </Form.Item>
        <Form.Item label="合同模板（已发布的版本）" name="template_version_id">
          <Select allowClear options={published} />
        </Form.Item>
      </FormDialog>
    </>
  )
}
