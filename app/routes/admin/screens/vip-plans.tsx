import { PlusOutlined } from '@ant-design/icons'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, Input, InputNumber, Modal, Space, Switch, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { VipPlanForm } from '#shared/api/admin-vip.ts'
import { api } from '../lib/client.ts'
import { useDangerConfirm } from '../lib/confirm.ts'
import { yuan } from '../lib/format.ts'
import { useMe } from '../lib/me.ts'
import { zodRule } from '../lib/zod-rule.ts'

interface Plan {
  id: number
  name: string
  days: number
  price_fen: number
  original_price_fen: number | null
  description: string
  badge: string | null
  active: boolean
  sort: number
}
type Values = Omit<Plan, 'id' | 'price_fen' | 'original_price_fen'> & {
  price_yuan: number
  original_yuan?: number | null
}

const rule = (name: keyof typeof VipPlanForm.shape) => zodRule(VipPlanForm.shape[name])
const toFen = (yuanValue: number) => Math.round(yuanValue * 100)

/** VIP plans: add, change, withdraw (active off). Prices are typed in yuan and sent as integer fen. */
export default function VipPlans() {
  const { message } = App.useApp()
  const confirm = useDangerConfirm()
  const { may } = useMe()
  const client = useQueryClient()
  const [editing, setEditing] = useState<Plan | 'new' | null>(null)
  const [form] = Form.useForm<Values>()
  const plans = useQuery({ queryKey: ['vip-plans'], queryFn: () => api.get<{ list: Plan[] }>('/admin/vip-plans') })
  const edit = may('marketing.edit')

  const save = useMutation({
    mutationFn: ({ id, body }: { id?: number; body: object }) =>
      id ? api.patch<Plan>(`/admin/vip-plans/${id}`, body) : api.post<Plan>('/admin/vip-plans', body),
    onSuccess: (p) => {
      message.success(`已保存「${p.name}」${p.active ? '' : '（已停售）'}`)
      setEditing(null)
      void client.invalidateQueries({ queryKey: ['vip-plans'] })
    },
    onError: (e) => message.error(e.message),
  })

  const open = (p: Plan | 'new') => {
    const plan = p === 'new' ? null : p
    form.setFieldsValue({
      name: plan?.name ?? '',
      days: plan?.days ?? 365,
      price_yuan: plan ? plan.price_fen / 100 : undefined,
      original_yuan: plan?.original_price_fen ? plan.original_price_fen / 100 : null,
      description: plan?.description ?? '',
      badge: plan?.badge ?? '',
      active: plan?.active ?? true,
      sort: plan?.sort ?? 0,
    })
    setEditing(p)
  }
  const submit = async () => {
    const v = await form.validateFields()
    const body = {
      name: v.name,
      days: v.days,
      price_fen: toFen(v.price_yuan),
      original_price_fen: v.original_yuan ? toFen(v.original_yuan) : null,
      description: v.description ?? '',
      badge: v.badge || null,
      active: v.active,
      sort: v.sort,
    }
    save.mutate({ id: editing === 'new' ? undefined : editing?.id, body })
  }
  const withdraw = (p: Plan) =>
    confirm({
      title: '停售 VIP 套餐',
      content: `停售「${p.name}」（${yuan(p.price_fen)} / ${p.days} 天）后学员不能再购买；已购买的会员不受影响。`,
      okText: '停售',
      onOk: () => save.mutateAsync({ id: p.id, body: { active: false } }),
    })

  return (
    <>
      <Typography.Title level={4}>VIP 套餐</Typography.Title>
      <div className="zx-console-table">
        <Space className="zx-console-filters">
          {edit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
              新建套餐
            </Button>
          )}
        </Space>
        {plans.error && <div className="zx-console-error">加载失败：{plans.error.message}。请刷新重试。</div>}
        <Table<Plan>
          rowKey="id"
          loading={plans.isFetching}
          dataSource={plans.data?.list ?? []}
          pagination={false}
          locale={{ emptyText: '还没有 VIP 套餐，点“新建套餐”添加。' }}
          columns={[
            { title: '排序', dataIndex: 'sort', width: 70 },
            {
              title: '名称',
              dataIndex: 'name',
              render: (n: string, p) =>
                p.badge ? (
                  <>
                    {n} <Tag>{p.badge}</Tag>
                  </>
                ) : (
                  n
                ),
            },
            { title: '天数', dataIndex: 'days', align: 'right' },
            { title: '价格', dataIndex: 'price_fen', align: 'right', render: yuan },
            {
              title: '划线价',
              dataIndex: 'original_price_fen',
              align: 'right',
              render: (f: number | null) => (f ? yuan(f) : '—'),
            },
            {
              title: '状态',
              dataIndex: 'active',
              render: (a: boolean) => (a ? <Tag color="green">在售</Tag> : <Tag>已停售</Tag>),
            },
            {
              title: '操作',
              key: 'actions',
              render: (_, p) =>
                edit && (
                  <Space>
                    <a onClick={() => open(p)}>编辑</a>
                    {p.active ? (
                      <a onClick={() => withdraw(p)}>停售</a>
                    ) : (
                      <a onClick={() => save.mutate({ id: p.id, body: { active: true } })}>恢复在售</a>
                    )}
                  </Space>
                ),
            },
          ]}
        />
      </div>
      <Modal
        title={editing === 'new' ? '新建 VIP 套餐' : `编辑「${editing?.name ?? ''}」`}
        open={editing !== null}
        onCancel={() => setEditing(null)}
        onOk={submit}
        okText="保存"
        cancelText="取消"
        confirmLoading={save.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item label="名称" name="name" rules={[rule('name')]}>
            <Input maxLength={20} />
          </Form.Item>
          <Space>
            <Form.Item label="天数" name="days" rules={[rule('days')]}>
              <InputNumber min={1} max={3660} />
            </Form.Item>
            <Form.Item label="价格（元）" name="price_yuan" rules={[rule('price_yuan')]}>
              <InputNumber min={0.01} step={1} precision={2} />
            </Form.Item>
            <Form.Item label="划线价（元，可空）" name="original_yuan" rules={[rule('original_yuan')]}>
              <InputNumber min={0.01} step={1} precision={2} />
            </Form.Item>
          </Space>
          <Form.Item label="说明" name="description" rules={[rule('description')]}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
          <Space>
            <Form.Item label="角标（可空）" name="badge" rules={[rule('badge')]}>
              <Input maxLength={8} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item label="排序" name="sort" rules={[rule('sort')]}>
              <InputNumber min={0} max={10000} />
            </Form.Item>
            <Form.Item label="在售" name="active" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
    </>
  )
}
