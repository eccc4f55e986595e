import { PlusOutlined } from '@ant-design/icons'
import { Button, Form, Input, InputNumber, Space, Tag } from 'antd'
import { VipPlanForm, type StaffVipPlan as Plan } from '#shared/api/admin-vip.ts'
import { api } from '../lib/client.ts'
import { SwitchField } from '../lib/fields.tsx'
import { actionsColumn, moneyColumn, onOffColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { fenOf, yuan } from '../lib/format.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { useMe } from '../lib/me.ts'
import { zodRule } from '../lib/zod-rule.ts'

type Values = Omit<Plan, 'id' | 'price_fen' | 'original_price_fen'> & {
  price_yuan: number
  original_yuan?: number | null
}

const rule = (name: keyof typeof VipPlanForm.shape) => zodRule(VipPlanForm.shape[name])

/** A plan's form values (a new plan: a year, on sale). */
const fill = (plan: Plan | null): Partial<Values> => ({
  name: plan?.name ?? '',
  days: plan?.days ?? 365,
  price_yuan: plan ? plan.price_fen / 100 : undefined,
  original_yuan: plan?.original_price_fen ? plan.original_price_fen / 100 : null,
  description: plan?.description ?? '',
  badge: plan?.badge ?? '',
  active: plan?.active ?? true,
  sort: plan?.sort ?? 0,
})

const saved = (p: Plan) => `已保存「${p.name}」${p.active ? '' : '（已停售）'}`
const table = [tableKey('/admin/vip-plans')]

/** VIP plans: add, change, withdraw (active off). Prices are typed in yuan and sent as integer fen. */
export default function VipPlans() {
  const confirm = useDangerConfirm()
  const { may } = useMe()
  const editor = useEditor<Plan, Values>('vip_plan', fill)
  const edit = may('marketing.edit')

  const patch = useWrite(
    ({ id, body }: { id: number; body: Partial<Plan> }) => api.patch<Plan>(`/admin/vip-plans/${id}`, body),
    saved,
    table,
  )
  const save = useWrite(
    (v: Values) => {
      const { price_yuan, original_yuan, ...fields } = v
      const body = {
        ...fields,
        price_fen: fenOf(price_yuan),
        original_price_fen: original_yuan ? fenOf(original_yuan) : null,
        description: v.description ?? '',
        badge: v.badge || null,
      }
      return editor.editing
        ? api.patch<Plan>(`/admin/vip-plans/${editor.editing.id}`, body)
        : api.post<Plan>('/admin/vip-plans', body)
    },
    saved,
    table,
  )
  const withdraw = (p: Plan) =>
    confirm({
      title: '停售 VIP 套餐',
      content: `停售「${p.name}」（${yuan(p.price_fen)} / ${p.days} 天）后学员不能再购买；已购买的会员不受影响。`,
      okText: '停售',
      run: () => patch.mutateAsync({ id: p.id, body: { active: false } }),
    })

  return (
    <>
      <ConsoleTable<Plan>
        title="VIP 套餐"
        path="/admin/vip-plans"
        csv="marketing.read"
        search="套餐名称"
        filters={[selectFilter('active', '状态', { true: '在售', false: '已停售' })]}
        toolbar={
          edit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => editor.open(null)}>
              新建套餐
            </Button>
          )
        }
        empty="还没有 VIP 套餐，点“新建套餐”添加。"
        columns={[
          { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, width: 70 },
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
          moneyColumn('价格', 'price_fen', true),
          moneyColumn('划线价', 'original_price_fen'),
          onOffColumn('状态', 'active', '在售', '已停售'),
          ...actionsColumn<Plan>(
            (p) => (
              <>
                <a onClick={() => editor.open(p)}>编辑</a>
                {p.active ? (
                  <a onClick={() => withdraw(p)}>停售</a>
                ) : (
                  <a onClick={() => patch.mutate({ id: p.id, body: { active: true } })}>恢复在售</a>
                )}
              </>
            ),
            edit,
          ),
        ]}
      />
      <FormDialog
        {...editor.dialog}
        title={editor.editing ? `编辑「${editor.editing.name}」` : '新建 VIP 套餐'}
        save={save}
        destroyOnHidden
      >
        <Form.Item label="名称" name="name" rules={[{ required: true, message: '请填写名称' }, rule('name')]}>
          <Input maxLength={20} />
        </Form.Item>
        <Space align="start">
          <Form.Item label="天数" name="days" rules={[{ required: true, message: '请填写天数' }, rule('days')]}>
            <InputNumber />
          </Form.Item>
          <Form.Item
            label="价格（元）"
            name="price_yuan"
            rules={[{ required: true, message: '请填写价格' }, rule('price_yuan')]}
          >
            <InputNumber step={1} precision={2} />
          </Form.Item>
          <Form.Item label="划线价（元，可空）" name="original_yuan" rules={[rule('original_yuan')]}>
            <InputNumber step={1} precision={2} />
          </Form.Item>
        </Space>
        <Form.Item label="说明" name="description" rules={[rule('description')]}>
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
        <Space align="start">
          <Form.Item label="角标（可空）" name="badge" rules={[rule('badge')]}>
            <Input maxLength={8} style={{ width: 120 }} />
          </Form.Item>
          <Form.Item label="排序" name="sort" rules={[rule('sort')]}>
            <InputNumber precision={0} />
          </Form.Item>
          <SwitchField label="在售" name="active" />
        </Space>
      </FormDialog>
    </>
  )
}
