import { Button, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import type { RedeemBatchRow } from '#server/modules/redeem/redeem.schema.ts'
import type { SearchResult } from '#server/modules/catalogue/search.schema.ts'
import { RedeemBatchCreate, REDEEM_BATCH_MAX } from '#shared/api/redeem.ts'
import { api, downloadPost } from '../lib/client.ts'
import { RadioField } from '../lib/fields.tsx'
import { actionsColumn, stateColumn, timeColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { useStepUp } from '../lib/step-up.tsx'
import { zodRule } from '../lib/zod-rule.ts'
import { redeemBatchStateNames } from './names.ts'

const stateColor: Record<RedeemBatchRow['state'], string | undefined> = {
  active: 'green',
  scheduled: 'blue',
  expired: undefined,
  disabled: 'red',
}

interface CreateForm {
  name: string
  grants: 'courses' | 'vip'
  course_ids?: number[]
  vip_days?: number
  count: number
  valid: [{ toISOString(): string }, { toISOString(): string }]
  uses_per_code: number
  per_member_limit: number
  note?: string
}

const field = RedeemBatchCreate.shape

/**
 * Redeem codes: the batches (one list), creating a batch (its codes download once as a CSV after a fresh SMS
 * code), disabling a batch; a batch's codes on their own screen.
 */
export default function RedeemBatches() {
  const confirm = useDangerConfirm()
  const stepUp = useStepUp()
  const editor = useEditor<never, CreateForm>('redeem_batch', () => ({
    grants: 'courses',
    count: 100,
    uses_per_code: 1,
    per_member_limit: 1,
  }))
  const grants = Form.useWatch('grants', editor.form)
  const [options, setOptions] = useState<{ value: number; label: string }[]>([])

  const create = useWrite(
    async (v: CreateForm) => {
      if (!(await stepUp())) throw new Error('未完成短信验证，操作没有执行')
      return downloadPost('/admin/redeem/batches', {
        name: v.name,
        course_ids: v.grants === 'courses' ? (v.course_ids ?? []) : [],
        vip_days: v.grants === 'vip' ? (v.vip_days ?? null) : null,
        count: v.count,
        valid_from: v.valid[0].toISOString(),
        valid_until: v.valid[1].toISOString(),
        uses_per_code: v.uses_per_code,
        per_member_limit: v.per_member_limit,
        note: v.note ?? '',
      }).then(() => v.count)
    },
    (count) => `已生成 ${count} 个兑换码并下载。兑换码只显示这一次，请妥善保存文件。`,
    [tableKey('/admin/redeem/batches')],
  )

  const disable = useWrite(
    (b: RedeemBatchRow) => api.post<RedeemBatchRow>(`/admin/redeem/batches/${b.id}/disable`),
    (b) => `批次「${b.name}」已停用`,
    [tableKey('/admin/redeem/batches')],
  )

  const confirmDisable = (b: RedeemBatchRow) =>
    confirm({
      title: `停用批次「${b.name}」`,
      content: `停用后，这批 ${b.code_count} 个兑换码中未使用的都不能再兑换（已兑换的课程不受影响）。此操作不能撤销。`,
      okText: '停用',
      run: () => disable.mutateAsync(b),
    })

  const findCourses = async (keyword: string) => {
    if (!keyword.trim()) return
    const found = await api.get<SearchResult>('/searchCourse', { keyword, limit: 20 }).catch(() => null)
    setOptions(found?.list.map((c) => ({ value: c.id, label: `${c.title}（${c.id}）` })) ?? [])
  }

  return (
    <>
      <ConsoleTable<RedeemBatchRow>
        title="兑换码"
        path="/admin/redeem/batches"
        search="批次名称或备注"
        filters={[selectFilter('state', '状态', { active: '未停用', disabled: '已停用' })]}
        csv="redeem.manage"
        toolbar={
          <Button type="primary" onClick={() => editor.open(null)}>
            新建批次
          </Button>
        }
        empty="还没有兑换码批次。"
        columns={[
          { title: 'ID', dataIndex: 'id', sorter: true },
          {
            title: '名称',
            dataIndex: 'name',
            render: (name: string, b) => <Link to={`/admin/marketing/redeem/${b.id}`}>{name}</Link>,
          },
          { title: '可兑换', dataIndex: 'grants' },
          {
            title: '已用 / 总数',
            key: 'usage',
            render: (_, b) =>
              `${b.used_codes} / ${b.code_count}${b.revoked_codes ? `（作废 ${b.revoked_codes}）` : ''}`,
          },
          { title: '每码次数', dataIndex: 'uses_per_code' },
          { title: '每人上限', dataIndex: 'per_member_limit' },
          timeColumn('有效期至', 'valid_until', true),
          { title: '备注', dataIndex: 'note', ellipsis: true },
          stateColumn('状态', 'state', redeemBatchStateNames, stateColor),
          timeColumn('创建时间', 'created_at', true),
          ...actionsColumn<RedeemBatchRow>((b) => (
            <>
              <Link to={`/admin/marketing/redeem/${b.id}`}>兑换码</Link>
              {b.state !== 'disabled' && <a onClick={() => confirmDisable(b)}>停用</a>}
            </>
          )),
        ]}
      />
      <FormDialog
        {...editor.dialog}
        title="新建兑换码批次"
        save={create}
        okText="生成并下载兑换码"
        destroyOnHidden
        width={560}
      >
        <p>
          兑换码只在生成时以 CSV 文件下载一次，服务器只保存无法还原的摘要；生成前需要短信验证。一批最多{' '}
          {REDEEM_BATCH_MAX.toLocaleString()} 个。
        </p>
        <Form.Item
          label="批次名称"
          name="name"
          rules={[{ required: true, message: '请填写批次名称' }, zodRule(field.name)]}
        >
          <Input maxLength={40} placeholder="如：双十一抖音渠道" />
        </Form.Item>
        <RadioField label="兑换内容" name="grants" names={{ courses: '课程', vip: 'VIP 天数' }} />
        {grants === 'vip' ? (
          <Form.Item
            label="VIP 天数"
            name="vip_days"
            rules={[{ required: true, message: '请填写 VIP 天数' }, zodRule(field.vip_days)]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : (
          <Form.Item label="课程" name="course_ids" rules={[{ required: true, message: '请选择至少一门课程' }]}>
            <Select
              mode="multiple"
              showSearch={{ filterOption: false, onSearch: (k) => void findCourses(k) }}
              options={options}
              placeholder="输入课程名称搜索"
              aria-label="课程"
            />
          </Form.Item>
        )}
        <Form.Item label="数量" name="count" rules={[{ required: true, message: '请填写数量' }, zodRule(field.count)]}>
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="有效期" name="valid" rules={[{ required: true, message: '请选择有效期' }]}>
          <DatePicker.RangePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Space size="large">
          <Form.Item
            label="每个码可用次数"
            name="uses_per_code"
            rules={[{ required: true, message: '请填写可用次数' }, zodRule(field.uses_per_code)]}
          >
            <InputNumber precision={0} />
          </Form.Item>
          <Form.Item
            label="每人最多使用本批"
            name="per_member_limit"
            rules={[{ required: true, message: '请填写每人上限' }, zodRule(field.per_member_limit)]}
          >
            <InputNumber precision={0} />
          </Form.Item>
        </Space>
        <Form.Item label="备注（渠道、经销商）" name="note" rules={[zodRule(field.note)]}>
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
      </FormDialog>
    </>
  )
}
