import { Form, Input, Space, Tabs, Typography } from 'antd'
import { useSearchParams } from 'react-router'
import type { IssuedCoupon } from '#server/modules/coupons/coupons.schema.ts'
import { TemplateCreate } from '#shared/api/admin-coupons.ts'
import { api } from '../lib/client.ts'
import { NumberField, RadioField } from '../lib/fields.tsx'
import { actionsColumn, idColumn, memberColumn, onOffColumn, timeColumn } from '../lib/columns.tsx'
import { useDangerConfirm } from '../lib/confirm.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { useEditor, useWrite } from '../lib/editing.ts'
import { fenOf, yuan } from '../lib/format.ts'
import { FormDialog } from '../lib/form-dialog.tsx'
import { AddButton } from '../lib/list-header.tsx'
import { useMe } from '../lib/me.ts'
import { zodRule } from '../lib/zod-rule.ts'

interface Template {
  id: number
  name: string
  kind: 'amount' | 'percent'
  amount_off_fen: number | null
  percent_off: number | null
  max_off_fen: number | null
  min_spend_fen: number
  valid_days: number | null
  total_limit: number | null
  per_member_limit: number
  claimed_count: number
  used_count: number
  active: boolean
}
interface Values {
  name: string
  kind: 'amount' | 'percent'
  amount_yuan?: number
  percent_off?: number
  min_yuan?: number
  valid_days: number
  total_limit?: number
  per_member_limit: number
}

const stateNames: Record<IssuedCoupon['state'], string> = {
  available: '未使用',
  reserved: '下单占用',
  used: '已使用',
  expired: '已过期',
}
const saved = (t: Template) => `已保存优惠券「${t.name}」${t.active ? '' : '（已停用）'}`
const table = [tableKey('/admin/coupon-templates')]
const rule = (name: keyof typeof TemplateCreate.shape) => zodRule(TemplateCreate.shape[name])
const terms = (t: Template) =>
  `${t.kind === 'amount' ? `减 ${yuan(t.amount_off_fen ?? 0)}` : `${100 - (t.percent_off ?? 0)} 折`.replace(/(\d)(\d) 折/, '$1.$2 折')}${t.min_spend_fen ? `（满 ${yuan(t.min_spend_fen)}）` : ''}`

/** Templates: add, change, switch off; with how many were issued and used, and the issued list by template. */
function Templates({ onIssued }: { onIssued: (t: Template) => void }) {
  const confirm = useDangerConfirm()
  const { may } = useMe()
  const editor = useEditor<never, Values>('coupon_template', () => ({
    kind: 'amount',
    valid_days: 30,
    per_member_limit: 1,
    min_yuan: 0,
  }))
  const edit = may('marketing.edit')
  const kind = Form.useWatch('kind', editor.form)

  const add = useWrite(
    (v: Values) =>
      api.post<Template>('/admin/coupon-templates', {
        name: v.name,
        kind: v.kind,
        ...(v.kind === 'amount' ? { amount_off_fen: fenOf(v.amount_yuan ?? 0) } : { percent_off: v.percent_off }),
        min_spend_fen: fenOf(v.min_yuan ?? 0),
        valid_days: v.valid_days,
        ...(v.total_limit ? { total_limit: v.total_limit } : {}),
        per_member_limit: v.per_member_limit,
      }),
    saved,
    table,
  )
  const patch = useWrite(
    ({ id, active }: { id: number; active: boolean }) =>
      api.patch<Template>(`/admin/coupon-templates/${id}`, { active }),
    saved,
    table,
  )
  const switchOff = (t: Template) =>
    confirm({
      title: '停用优惠券',
      content: `停用「${t.name}」后学员不能再领取；已领取的 ${t.claimed_count - t.used_count} 张未用券仍可使用到期。`,
      okText: '停用',
      run: () => patch.mutateAsync({ id: t.id, active: false }),
    })

  return (
    <>
      <ConsoleTable<Template>
        path="/admin/coupon-templates"
        search="优惠券名称"
        filters={[selectFilter('active', '状态', { true: '可领取', false: '已停用' })]}
        empty="还没有优惠券模板。"
        toolbar={edit && <AddButton label="新建优惠券" onClick={() => editor.open(null)} />}
        columns={[
          idColumn(),
          { title: '名称', dataIndex: 'name' },
          { title: '优惠', key: 'terms', render: (_, t) => terms(t) },
          { title: '有效期', dataIndex: 'valid_days', render: (d: number | null) => (d ? `领取后 ${d} 天` : '—') },
          { title: '总量', dataIndex: 'total_limit', align: 'right', render: (n: number | null) => n ?? '不限' },
          { title: '已领', dataIndex: 'claimed_count', key: 'claimed_count', sorter: true, align: 'right' },
          { title: '已用', dataIndex: 'used_count', align: 'right' },
          onOffColumn('状态', 'active', '可领取', '已停用'),
          ...actionsColumn<Template>((t) => (
            <>
              <a onClick={() => onIssued(t)}>领取记录</a>
              {edit && t.active && <a onClick={() => switchOff(t)}>停用</a>}
              {edit && !t.active && <a onClick={() => patch.mutate({ id: t.id, active: true })}>启用</a>}
            </>
          )),
        ]}
      />
      <FormDialog {...editor.dialog} title="新建优惠券" save={add} destroyOnHidden>
        <Form.Item label="名称" name="name" rules={[{ required: true, message: '请填写名称' }, rule('name')]}>
          <Input maxLength={40} />
        </Form.Item>
        <RadioField label="类型" name="kind" names={{ amount: '立减金额', percent: '折扣' }} />
        <Space align="start">
          {kind === 'percent' ? (
            <NumberField
              label="减免百分比（15 即 85 折）"
              name="percent_off"
              required="请填写减免百分比"
              rule={rule('percent_off')}
              precision={0}
            />
          ) : (
            <NumberField
              label="立减（元）"
              name="amount_yuan"
              required="请填写立减金额"
              rule={zodRule(TemplateCreate.shape.amount_off_fen, (v) => fenOf(v as number))}
              precision={2}
            />
          )}
          <NumberField
            label="门槛（元，0 为无门槛）"
            name="min_yuan"
            rule={zodRule(TemplateCreate.shape.min_spend_fen, (v) => fenOf(v as number))}
            precision={2}
          />
        </Space>
        <Space align="start">
          <NumberField label="领取后有效天数" name="valid_days" required="请填写有效天数" rule={rule('valid_days')} />
          <NumberField label="总量（空为不限）" name="total_limit" rule={rule('total_limit')} />
          <NumberField
            label="每人限领"
            name="per_member_limit"
            required="请填写每人限领张数"
            rule={rule('per_member_limit')}
          />
        </Space>
      </FormDialog>
    </>
  )
}

/** Issued coupons by template and state, with CSV of what the filter shows. */
function Issued() {
  return (
    <ConsoleTable<IssuedCoupon>
      path="/admin/coupons"
      csv="marketing.read"
      search={false}
      filters={[
        { name: 'template_id', label: '模板 ID', type: 'text' },
        { name: 'member_id', label: '会员 ID', type: 'text' },
        selectFilter('state', '状态', stateNames),
        { name: 'claimed', label: '领取日期', type: 'dates' },
      ]}
      empty="没有符合条件的优惠券。"
      none="还没有发出的优惠券。学员领取或获赠后会出现在这里。"
      columns={[
        idColumn('券 ID', 80),
        { title: '模板', dataIndex: 'template_name' },
        memberColumn(),
        { title: '状态', dataIndex: 'state', render: (s: IssuedCoupon['state']) => stateNames[s] },
        { title: '订单', dataIndex: 'order_id', render: (o: number | null) => o ?? '—' },
        timeColumn('领取时间', 'claimed_at', true),
        timeColumn('到期', 'expires_at'),
        timeColumn('使用时间', 'used_at', true),
      ]}
    />
  )
}

/** Coupons: templates and the coupons issued from them. */
export default function Coupons() {
  const [search, setSearch] = useSearchParams()
  const tab = search.get('tab') === 'issued' ? 'issued' : 'templates'
  return (
    <>
      <Typography.Title level={4}>优惠券</Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setSearch(k === 'issued' ? { tab: 'issued' } : {})}
        items={[
          {
            key: 'templates',
            label: '模板',
            children: <Templates onIssued={(t) => setSearch({ tab: 'issued', template_id: String(t.id) })} />,
          },
          { key: 'issued', label: '已发放 / 已使用', children: <Issued /> },
        ]}
      />
    </>
  )
}
