import { useQuery } from '@tanstack/react-query'
import { Descriptions, Drawer, Tag, Timeline, Typography } from 'antd'
import type { StaffOrder, StaffOrderDetail } from '#server/modules/orders/orders.schema.ts'
import { api } from '../lib/client.ts'
import { moneyColumn, timeColumn } from '../lib/columns.tsx'
import { ConsoleTable, selectFilter, useDetailParam } from '../lib/console-table.tsx'
import { when, yuan } from '../lib/format.ts'
import { eventReasonNames, kindNames, orderStateNames, payMethodNames } from './names.ts'

/** Orders: search by number, phone or member id; filter by state, kind, date and sp; detail with the event log. */
export default function Orders() {
  const [open, show] = useDetailParam()
  return (
    <>
      <ConsoleTable<StaffOrder>
        title="订单"
        rowKey="order_no"
        path="/admin/orders"
        csv="orders.export"
        search="订单号、手机号或会员ID"
        filters={[
          selectFilter('state', '状态', orderStateNames),
          selectFilter('kind', '类型', kindNames),
          { name: 'dates', label: '下单日期', type: 'dates' },
          { name: 'sp', label: '推广来源', type: 'text' },
        ]}
        onRow={(o) => ({ onClick: () => show(o.order_no), style: { cursor: 'pointer' } })}
        empty="没有符合条件的订单。换个日期或状态试试。"
        none="还没有订单。学员下单后会出现在这里。"
        columns={[
          { title: '订单号', dataIndex: 'order_no', render: (v: string) => <a>{v}</a> },
          { title: '标题', dataIndex: 'title', ellipsis: true },
          { title: '类型', dataIndex: 'kind', render: (k: string) => kindNames[k] ?? k },
          moneyColumn('应付', 'amount_fen', true),
          { title: '状态', dataIndex: 'state', render: (s: string) => <Tag>{orderStateNames[s] ?? s}</Tag> },
          { title: '手机号', dataIndex: 'phone' },
          { title: '支付方式', dataIndex: 'pay_method', render: (m: string) => payMethodNames[m] ?? m },
          { title: '推广来源', dataIndex: 'sp', render: (v: string | null) => v ?? '—' },
          timeColumn('下单时间', 'created_at', true),
        ]}
      />
      <OrderDrawer orderNo={open} onClose={() => show(null)} />
    </>
  )
}

/** One order with its lines and event log (the orders screen's detail, the refunds queue's Enter). */
export function OrderDrawer({ orderNo, onClose }: { orderNo: string | null; onClose: () => void }) {
  const { data, error } = useQuery({
    queryKey: ['order', orderNo],
    queryFn: () => api.get<StaffOrderDetail>(`/admin/orders/${orderNo}`),
    enabled: orderNo !== null,
  })
  return (
    <Drawer open={orderNo !== null} onClose={onClose} title={`订单 ${orderNo ?? ''}`} size={560}>
      {error && <div className="zx-console-error">{error.message}</div>}
      {data && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="标题">{data.title}</Descriptions.Item>
            <Descriptions.Item label="状态">{orderStateNames[data.state]}</Descriptions.Item>
            <Descriptions.Item label="会员">
              {data.member_id}（{data.phone ?? '未绑定手机'}）
            </Descriptions.Item>
            <Descriptions.Item label="应付 / 原价 / 优惠">
              {yuan(data.amount_fen)} / {yuan(data.original_fen)} / {yuan(data.discount_fen)}
            </Descriptions.Item>
            <Descriptions.Item label="积分抵扣">
              {data.points_used > 0 ? `${data.points_used} 积分` : '未使用'}
            </Descriptions.Item>
            <Descriptions.Item label="已退款">{yuan(data.refunded_fen)}</Descriptions.Item>
            <Descriptions.Item label="支付">
              {payMethodNames[data.pay_method]} {data.provider_txn_id ?? ''}
            </Descriptions.Item>
            <Descriptions.Item label="推广来源">{data.sp ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="下单 / 支付">
              {when(data.created_at)} / {when(data.paid_at)}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            事件记录
          </Typography.Title>
          <Timeline
            items={data.events.map((e) => ({
              content: (
                <>
                  <b>
                    {e.from ? `${orderStateNames[e.from]} → ` : ''}
                    {orderStateNames[e.to]}
                  </b>
                  <div>{eventReasonNames[e.reason] ?? e.reason}</div>
                  <Typography.Text type="secondary">{when(e.at)}</Typography.Text>
                </>
              ),
            }))}
          />
        </>
      )}
    </Drawer>
  )
}
