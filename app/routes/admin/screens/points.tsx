import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Space,
  Typography,
  type TableColumnsType,
} from 'antd'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import type { MemberPage } from '#server/modules/admin/admin-members.schema.ts'
import type { ListPage } from '#shared/api/admin-list.ts'
import { PointAdjustForm } from '#shared/api/admin-points.ts'
import { PointReasonNames, type PointReason } from '#shared/point-reasons.ts'
import type { LedgerEntry } from '#server/modules/points/points.schema.ts'
import { api } from '../lib/client.ts'
import { useConfirm } from '../lib/confirm.tsx'
import { idColumn, memberColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, tableKey } from '../lib/console-table.tsx'
import { zodRule } from '../lib/zod-rule.ts'

interface Member {
  id: number
  phone: string | null
  nickname: string
}

/**
 * A ledger entry's columns after its number (the points screen's ledger, a member's points tab): the change, the
 * balance after it, why, who made it and when.
 */
export const ledgerColumns: TableColumnsType<LedgerEntry> = [
  {
    title: '变动',
    dataIndex: 'delta',
    align: 'right',
    render: (d: number) => <span style={{ color: d > 0 ? '#389e0d' : '#cf1322' }}>{d > 0 ? `+${d}` : d}</span>,
  },
  { title: '余额', dataIndex: 'balance_after', align: 'right' },
  { title: '类型', dataIndex: 'reason', render: (r: PointReason) => PointReasonNames[r] },
  { title: '原因 / 订单', key: 'note', render: (_, e) => e.note ?? e.order_no ?? '—' },
  { title: '操作人', dataIndex: 'actor_name' },
  timeColumn('时间', 'created_at'),
]

const who = (m: Member) => `${m.nickname || '会员'}（${m.phone ?? `ID ${m.id}`}）`

/** Finds a member by phone (or id), shows the balance and adjusts it with a reason, after a confirmation. */
function Adjust({ onMember }: { onMember: (m: Member | null) => void }) {
  const { message } = App.useApp()
  const confirm = useConfirm()
  const client = useQueryClient()
  const [search, setSearch] = useSearchParams()
  const [phone, setPhone] = useState(search.get('phone') ?? '')
  const [form] = Form.useForm<{ delta: number; note: string }>()
  const q = search.get('phone')

  const found = useQuery({
    queryKey: ['points-member', q],
    enabled: Boolean(q),
    queryFn: async () => {
      const page = await api.get<ListPage<Member>>('/admin/members', { q, page_size: 1 })
      const m = page.list[0] ?? null
      onMember(m)
      if (!m) return null
      const { points_balance: balance } = await api.get<MemberPage>(`/admin/members/${m.id}`)
      return { member: m, balance }
    },
  })

  const adjust = useMutation({
    mutationFn: (v: { m: Member; delta: number; note: string }) =>
      api.post<{ balance: number }>(
        '/admin/points/adjust',
        { member_id: v.m.id, delta: v.delta, note: v.note },
        { 'idempotency-key': `points-${v.m.id}-${crypto.randomUUID()}` },
      ),
    onSuccess: (r, v) => {
      message.success(`已为 ${who(v.m)} ${v.delta > 0 ? '增加' : '扣减'} ${Math.abs(v.delta)} 积分，余额 ${r.balance}`)
      form.resetFields()
      void client.invalidateQueries({ queryKey: ['points-member'] })
      void client.invalidateQueries({ queryKey: tableKey('/admin/points/ledger') })
    },
    onError: (e) => message.error(e.message),
  })

  // The form's rules have passed (onFinish): ask, naming the member, the points and the balance. A refusal
  // (积分余额不足) keeps the confirmation open with the server's words, and under 积分 when it names that field.
  const submit = (v: { delta: number; note: string }) => {
    const m = found.data?.member
    if (!m) return
    const verb = v.delta > 0 ? '增加' : '扣减'
    confirm({
      title: `${verb}积分`,
      content: `将为 ${who(m)} ${verb} ${Math.abs(v.delta)} 积分（当前余额 ${found.data?.balance ?? 0}），原因：${v.note.trim()}。这条调整会记入积分流水和操作日志，不能撤回。`,
      okText: `确认${verb} ${Math.abs(v.delta)} 积分`,
      danger: v.delta < 0,
      form,
      run: () => adjust.mutateAsync({ m, delta: v.delta, note: v.note.trim() }),
    })
  }

  return (
    <Card title="调整积分" style={{ marginBottom: 16 }}>
      <Space.Compact style={{ width: 'min(360px, 100%)', marginBottom: 16 }}>
        <Input
          aria-label="会员手机号"
          placeholder="会员手机号或会员 ID"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          onPressEnter={() => setSearch(phone.trim() ? { phone: phone.trim() } : {})}
        />
        <Button type="primary" onClick={() => setSearch(phone.trim() ? { phone: phone.trim() } : {})}>
          查找
        </Button>
      </Space.Compact>
      {found.error && <div className="zx-console-error">查找失败：{found.error.message}</div>}
      {q && found.data === null && <Empty description={`没有找到会员 ${q}，请核对手机号`} />}
      {found.data && (
        <>
          <Descriptions size="small" column={3} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="会员">{who(found.data.member)}</Descriptions.Item>
            <Descriptions.Item label="会员 ID">{found.data.member.id}</Descriptions.Item>
            <Descriptions.Item label="积分余额">{found.data.balance}</Descriptions.Item>
          </Descriptions>
          <Form form={form} layout="inline" onFinish={submit}>
            <Form.Item
              name="delta"
              label="积分（负数为扣减）"
              rules={[{ required: true, message: '请填写积分数' }, zodRule(PointAdjustForm.shape.delta)]}
            >
              <InputNumber style={{ width: 140 }} precision={0} />
            </Form.Item>
            <Form.Item
              name="note"
              label="原因"
              rules={[
                { required: true, whitespace: true, message: '请填写调整原因' },
                zodRule(PointAdjustForm.shape.note),
              ]}
            >
              <Input style={{ width: 280 }} maxLength={200} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={adjust.isPending}>
              调整
            </Button>
          </Form>
        </>
      )}
    </Card>
  )
}

/** Points: adjust a member's balance with a reason, and every member's ledger (filtered to the member found). */
export default function Points() {
  const [member, setMember] = useState<Member | null>(null)
  return (
    <>
      <Typography.Title level={4}>积分</Typography.Title>
      <Adjust onMember={setMember} />
      <Typography.Title level={5}>{member ? `${who(member)} 的积分流水` : '积分流水'}</Typography.Title>
      <ConsoleTable<LedgerEntry>
        path="/admin/points/ledger"
        query={member ? { member_id: member.id } : {}}
        csv="members.read"
        search={false}
        filters={[selectFilter('reason', '类型', PointReasonNames), { name: 'created', label: '日期', type: 'dates' }]}
        empty="没有符合条件的积分流水。"
        none="还没有积分流水。学员购课得积分、兑换或调整积分后会出现在这里。"
        columns={[idColumn('流水', 80), memberColumn(), ...ledgerColumns]}
      />
    </>
  )
}
