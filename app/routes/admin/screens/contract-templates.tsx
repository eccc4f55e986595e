import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import type { z } from 'zod'
import type { PlanView, VersionView } from '#server/modules/tuition/tuition.schema.ts'
import { TemplateBody } from '#shared/api/tuition.ts'
import { api } from '../lib/client.ts'
import { actionsColumn, idColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { SwitchField, TextField } from '../lib/fields.tsx'
import { FormDialog } from '../lib/form-dialog.tsx'
import { when } from '../lib/format.ts'
import { ListHeader } from '../lib/list-header.tsx'
import { useMe } from '../lib/me.ts'
import { WholeTable } from '../lib/whole-list.tsx'
import { zodRule } from '../lib/zod-rule.ts'

type Version = z.infer<typeof VersionView>
type Template = { id: number; name: string; versions: Version[] }
type Values = { name?: string; title: string; body: string; asks_id: boolean }

/** What the dialog does: a new template, a new version of one, a draft edited, a published version shown. */
type Editing =
  | { kind: 'template' }
  | { kind: 'version'; template: Template; from?: Version }
  | { kind: 'draft'; version: Version }
  | { kind: 'published'; version: Version }

const key = ['contract-templates']

/** The placeholders a template may use (server/modules/tuition/contract-text.ts fills them). */
const placeholders = [
  ['real_name', '学员真实姓名'],
  ['id_type', '证件类型'],
  ['id_number', '证件号码'],
  ['phone', '手机号'],
  ['course', '课程'],
  ['plan', '学费方案'],
  ['total', '总学费'],
  ['schedule', '缴费安排'],
  ['refund_rule', '退费规则'],
  ['study_days', '学习期天数'],
  ['max_pause_days', '可休学天数'],
  ['date', '签约日期'],
] as const

const dialogTitle = (e: Editing | null) =>
  !e
    ? ''
    : e.kind === 'template'
      ? '新建合同模板'
      : e.kind === 'version'
        ? `「${e.template.name}」新建版本`
        : `第 ${e.version.version} 版${e.kind === 'published' ? '（已发布，只读）' : '（草稿）'}`

/**
 * 合同模板 (issue 15 §2): templates and their versions. A draft is edited and published; a published version never
 * changes (shown read-only, with 新建版本 instead). 预览 fills the placeholders for a sample learner.
 */
export default function ContractTemplates() {
  const { may } = useMe()
  const manage = may('tuition.manage')
  const confirm = useDangerConfirm()
  const [editing, setEditing] = useState<Editing | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const templates = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ list: Template[] }>('/admin/contract-templates'),
  })
  const editor = useEditor<Version, Values>('contract_version', (v) => ({
    title: v?.title ?? '',
    body: v?.body ?? '',
    asks_id: v?.asks_id ?? false,
  }))
  const open = (e: Editing, from: Version | null) => {
    setEditing(e)
    editor.open(from)
  }

  const save = useWrite(
    (v: Values) => {
      const body = { title: v.title, body: v.body, asks_id: v.asks_id }
      if (editing?.kind === 'template') return api.post<Version>('/admin/contract-templates', { ...body, name: v.name })
      if (editing?.kind === 'version')
        return api.post<Version>(`/admin/contract-templates/${editing.template.id}/versions`, body)
      if (editing?.kind === 'draft') return api.patch<Version>(`/admin/contract-versions/${editing.version.id}`, body)
      throw new Error('已发布的版本不能修改，请新建版本')
    },
    (v) => `已保存第 ${v.version} 版（草稿）`,
    [key],
  )
  const publish = useWrite(
    (v: Version) => api.post<Version>(`/admin/contract-versions/${v.id}/publish`),
    (v) => `第 ${v.version} 版已发布`,
    [key],
  )
  const askPublish = (t: Template, v: Version) =>
    confirm({
      title: `发布「${t.name}」第 ${v.version} 版？`,
      content: '发布后这一版永远不能再修改（要改只能新建版本）；之后发出的报名可以选用它，学员签署的就是这份文本。',
      okText: '发布',
      run: () => publish.mutateAsync(v),
    })

  const versionColumns = (t: Template) => [
    { title: '版本', dataIndex: 'version', render: (n: number) => `第 ${n} 版`, width: 90 },
    { title: '合同标题', dataIndex: 'title' },
    { title: '证件', dataIndex: 'asks_id', render: (on: boolean) => (on ? '要求填写' : '—') },
    {
      title: '状态',
      key: 'state',
      render: (_: unknown, v: Version) =>
        v.published ? <Tag color="green">已发布 {when(v.published_at)}</Tag> : <Tag color="gold">草稿</Tag>,
    },
    ...actionsColumn<Version>((v) => (
      <>
        <a onClick={() => setPreview(v.body)}>预览</a>
        {v.published ? (
          <>
            <a onClick={() => open({ kind: 'published', version: v }, v)}>查看</a>
            {manage && <a onClick={() => open({ kind: 'version', template: t, from: v }, v)}>新建版本</a>}
          </>
        ) : (
          manage && (
            <>
              <a onClick={() => open({ kind: 'draft', version: v }, v)}>编辑</a>
              <a onClick={() => askPublish(t, v)}>发布</a>
            </>
          )
        )}
      </>
    )),
  ]

  const list = templates.data?.list ?? []
  return (
    <>
      <ListHeader
        title="合同模板"
        add={manage && { label: '新建模板', onClick: () => open({ kind: 'template' }, null) }}
        error={templates.error}
      />
      <WholeTable<Template>
        rows={list}
        fetching={templates.isFetching}
        empty="还没有合同模板。点“新建模板”写第一版，发布后才能在发报名时选用。"
        expandable={{
          expandedRowKeys: list.map((t) => t.id),
          showExpandColumn: false,
          expandedRowRender: (t) => (
            <Table<Version>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={[...t.versions].sort((a, b) => b.version - a.version)}
              columns={versionColumns(t)}
            />
          ),
        }}
        columns={[
          idColumn(),
          { title: '模板名称', dataIndex: 'name' },
          {
            title: '已发布',
            key: 'published',
            render: (_, t) => {
              const latest = t.versions.filter((v) => v.published).at(-1)
              return latest ? `第 ${latest.version} 版` : <Typography.Text type="secondary">尚未发布</Typography.Text>
            },
          },
          ...actionsColumn<Template>(
            (t) => (
              <a
                onClick={() =>
                  open({ kind: 'version', template: t, from: t.versions.at(-1) }, t.versions.at(-1) ?? null)
                }
              >
                新建版本
              </a>
            ),
            manage,
          ),
        ]}
      />
      <FormDialog<Values>
        {...editor.dialog}
        title={dialogTitle(editing)}
        save={save}
        width={760}
        readOnly={editing?.kind === 'published'}
        okText={editing?.kind === 'published' ? '已发布，不能修改' : '保存草稿'}
        footnote={
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            占位符：
            {placeholders.map(([name, label]) => (
              <Tag key={name} title={label}>
                {`{{${name}}}`} {label}
              </Tag>
            ))}
          </Typography.Paragraph>
        }
      >
        {editing?.kind === 'template' && (
          <TextField label="模板名称" name="name" schema={TemplateBody.shape.name} max={60} required="请输入模板名称" />
        )}
        <TextField label="合同标题" name="title" schema={TemplateBody.shape.title} max={80} required="请输入合同标题" />
        <Form.Item
          label="合同正文"
          name="body"
          rules={[{ required: true, message: '请输入合同正文' }, zodRule(TemplateBody.shape.body)]}
        >
          <Input.TextArea rows={14} maxLength={20000} showCount />
        </Form.Item>
        <SwitchField label="要求学员填写证件类型和号码" name="asks_id" />
        <Button onClick={() => setPreview(editor.form.getFieldValue('body') as string)}>预览</Button>
      </FormDialog>
      <Preview body={preview} onClose={() => setPreview(null)} />
    </>
  )
}

/** The template's text filled for a sample learner (the server fills it as it fills a learner's contract). */
function Preview({ body, onClose }: { body: string | null; onClose: () => void }) {
  const [planId, setPlanId] = useState<number | undefined>()
  const plans = useQuery({
    queryKey: ['tuition-plans', 'all'],
    queryFn: () => api.get<{ list: z.infer<typeof PlanView>[] }>('/admin/tuition-plans'),
    enabled: body !== null,
  })
  const filled = useQuery({
    queryKey: ['contract-preview', body, planId],
    queryFn: () => api.post<{ text: string }>('/admin/contract-templates/preview', { body, plan_id: planId }),
    enabled: body !== null,
  })
  return (
    <Modal open={body !== null} onCancel={onClose} footer={null} width={720} title="合同预览（示例学员）">
      <Select
        allowClear
        placeholder="按示例方案填写（可选一个学费方案）"
        aria-label="学费方案"
        value={planId}
        onChange={setPlanId}
        options={(plans.data?.list ?? []).map((p) => ({ value: p.id, label: p.title }))}
        style={{ width: 'min(320px, 100%)', marginBottom: 12 }}
      />
      {filled.error && <div className="zx-console-error">{filled.error.message}</div>}
      <div className="zx-console-contract">{filled.data?.text ?? '正在生成预览…'}</div>
    </Modal>
  )
}
