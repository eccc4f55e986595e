import { useMutation, useQueryClient } from '@tanstack/react-query'
import { App, Button, DatePicker, Form, Input, InputNumber, Modal, Radio, Select, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { Link } from 'react-router'
import type { RedeemBatchRow } from '#server/modules/redeem/redeem.schema.ts'
import type { SearchResult } from '#server/modules/catalogue/search.schema.ts'
import { RedeemBatchCreate, REDEEM_BATCH_MAX } from '#shared/api/redeem.ts'
import { api, downloadPost } from '../lib/client.ts'
import { useDangerConfirm } from '../lib/confirm.ts'
import { ConsoleTable } from '../lib/console-table.tsx'
import { when } from '../lib/format.ts'
import { csvExport, pagedLoad } from '../lib/list.ts'
import { useStepUp } from '../lib/step-up.tsx'
import { zodRule } from '../lib/zod-rule.ts'
import { redeemBatchStateNames } from './names.ts'

const states = [
  { value: 'active', label: '未停用' },
  { value: 'disabled', label: '已停用' },
]
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
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const stepUp = useStepUp()
  const client = useQueryClient()
  const [creating, setCreating] = useState(false)
  const [form] = Form.useForm<CreateForm>()
  const grants = Form.useWatch('grants', form)
  const [options, setOptions] = useState<{ value: number; label: string }[]>([])

  const refresh = () => void client.invalidateQueries({ queryKey: ['table', 'redeem-batches'] })

  const create = useMutation({
    mutationFn: async (v: CreateForm) => {
      if (!(await stepUp())) throw new Error('已取消')
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
      })
    },
    onSuccess: (_headers, v) => {
      message.success(`已生成 ${v.count} 个兑换码并下载。兑换码只显示这一次，请妥善保存文件。`)
      setCreating(false)
      refresh()
    },
    onError: (e) => message.error(e.message),
  })

  const disable = useMutation({
    mutationFn: (b: RedeemBatchRow) => api.post<RedeemBatchRow>(`/admin/redeem/batches/${b.id}/disable`),
    onSuccess: (b) => {
      message.success(`批次「${b.name}」已停用`)
      refresh()
    },
    onError: (e) => message.error(e.message),
  })

  const confirmDisable = (b: RedeemBatchRow) =>
    confirm({
      title: `停用批次「${b.name}」`,
      content: `停用后，这批 ${b.code_count} 个兑换码中未使用的都不能再兑换（已兑换的课程不受影响）。此操作不能撤销。`,
      okText: '停用',
      onOk: () => disable.mutateAsync(b),
    })

  const findCourses = async (keyword: string) => {
    if (!keyword.trim()) return
    const found = await api.get<SearchResult>('/searchCourse', { keyword, limit: 20 }).catch(() => null)
    setOptions(found?.list.map((c) => ({ value: c.id, label: `${c.title}（${c.id}）` })) ?? [])
  }

  return (
    <>
      <Typography.Title level={4}>兑换码</Typography.Title>
      <ConsoleTable<RedeemBatchRow>
        id="redeem-batches"
        rowKey="id"
        searchPlaceholder="批次名称或备注"
        filters={[{ name: 'state', label: '状态', type: 'select', options: states }]}
        load={pagedLoad<RedeemBatchRow>('/admin/redeem/batches')}
        onExport={csvExport('/admin/redeem/batches')}
        toolbar={
          <Button
            type="primary"
            onClick={() => {
              form.resetFields()
              setCreating(true)
            }}
          >
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
          { title: '有效期至', dataIndex: 'valid_until', sorter: true, render: when },
          { title: '备注', dataIndex: 'note', ellipsis: true },
          {
            title: '状态',
            dataIndex: 'state',
            render: (s: RedeemBatchRow['state']) => <Tag color={stateColor[s]}>{redeemBatchStateNames[s]}</Tag>,
          },
          { title: '创建时间', dataIndex: 'created_at', sorter: true, render: when },
          {
            title: '操作',
            key: 'actions',
            render: (_, b) => (
              <Space>
                <Link to={`/admin/marketing/redeem/${b.id}`}>兑换码</Link>
                {b.state !== 'disabled' && <a onClick={() => confirmDisable(b)}>停用</a>}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title="新建兑换码批次"
        open={creating}
        okText="生成并下载兑换码"
        cancelText="取消"
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={async () => create.mutate(await form.validateFields())}
        destroyOnHidden
        width={560}
      >
        <p>
          兑换码只在生成时以 CSV 文件下载一次，服务器只保存无法还原的摘要；生成前需要短信验证。一批最多{' '}
          {REDEEM_BATCH_MAX.toLocaleString()} 个。
        </p>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ grants: 'courses', count: 100, uses_per_code: 1, per_member_limit: 1 }}
        >
          <Form.Item label="批次名称" name="name" rules={[zodRule(field.name)]}>
            <Input maxLength={40} placeholder="如：双十一抖音渠道" />
          </Form.Item>
          <Form.Item label="兑换内容" name="grants">
            <Radio.Group
              options={[
                { value: 'courses', label: '课程' },
                { value: 'vip', label: 'VIP 天数' },
              ]}
            />
          </Form.Item>
          {grants === 'vip' ? (
            <Form.Item label="VIP 天数" name="vip_days" rules={[{ required: true, message: '请填写 VIP 天数' }]}>
              <InputNumber min={1} max={3660} style={{ width: '100%' }} />
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
          <Form.Item label="数量" name="count" rules={[zodRule(field.count)]}>
            <InputNumber min={1} max={REDEEM_BATCH_MAX} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label="有效期" name="valid" rules={[{ required: true, message: '请选择有效期' }]}>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
          <Space size="large">
            <Form.Item label="每个码可用次数" name="uses_per_code" rules={[zodRule(field.uses_per_code)]}>
              <InputNumber min={1} max={10000} />
            </Form.Item>
            <Form.Item label="每人最多使用本批" name="per_member_limit" rules={[zodRule(field.per_member_limit)]}>
              <InputNumber min={1} max={10000} />
            </Form.Item>
          </Space>
          <Form.Item label="备注（渠道、经销商）" name="note" rules={[zodRule(field.note)]}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  )
}
