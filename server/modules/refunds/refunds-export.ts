import type { Db } from '#server/db/database.ts'
import type { RefundState } from '#server/db/schema/refunds.ts'
import { memberPhones } from '#server/modules/members/members.service.ts'
import { ordersByIds } from '#server/modules/orders/orders.service.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import { listRefunds, type RefundRow } from './refunds.repository.ts'

/** The columns of the refunds CSV export. */
export const REFUND_CSV_HEADER = [
  '退款单号',
  '订单号',
  '订单标题',
  '会员ID',
  '手机号',
  '类型',
  '状态',
  '退款(元)',
  '订单实付(元)',
  '原因',
  '处理备注',
  '申请时间',
  '处理时间',
  '完成时间',
  '失败原因',
]

/**
 * Refunds by state, newest first, as CSV rows for `csvRows` (server/http/admin-list.ts): read in batches by id,
 * each batch with its orders and members' phones from their modules.
 */
export function refundCsvRows(db: Db, filter: { state?: RefundState }) {
  let before: number | undefined
  return {
    read: async (_offset: number, limit: number) => {
      const rows = await listRefunds(db, { states: filter.state ? [filter.state] : undefined, before, limit })
      before = rows.at(-1)?.id
      return rows
    },
    cells: async (rows: RefundRow[]) => {
      const [orders, phones] = await Promise.all([
        ordersByIds(
          db,
          rows.map((r) => r.orderId),
        ),
        memberPhones(
          db,
          rows.map((r) => r.memberId),
        ),
      ])
      const time = (d: Date | null) => (d ? beijingDateTime(d) : '')
      return rows.map((r) => {
        const order = orders.get(r.orderId)
        return [
          r.refundNo,
          order?.orderNo ?? '',
          order?.title ?? '',
          r.memberId,
          phones.get(r.memberId) ?? '',
          r.kind,
          r.state,
          fenToYuan(r.amountFen),
          order ? fenToYuan(order.amountFen) : '',
          r.reason,
          r.decisionNote ?? '',
          time(r.createdAt),
          time(r.decidedAt),
          time(r.completedAt),
          r.lastError ?? '',
        ]
      })
    },
  }
}
