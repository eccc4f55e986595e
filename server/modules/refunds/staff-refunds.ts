import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { idsOf } from '#server/http/present.ts'
import { memberPhones, memberSearchFilter } from '#server/modules/members/members.service.ts'
import { ordersByIds } from '#server/modules/orders/orders.service.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import { refundList, type RefundRow, type StaffRefundFilter } from './refunds.repository.ts'
import type { StaffRefund, StaffRefundListQuery } from './refunds.schema.ts'
import { linesByRefund } from './refund-lines.ts'
import { toRefundView } from './refunds.service.ts'

// Refunds as the console lists them (GET /api/admin/refunds, as a page or as CSV): each page with its orders and
// members' phones from their modules.

/** The columns of the refunds CSV export. */
const REFUND_CSV_HEADER = [
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

/** The search box: a refund number, a member's phone or a member id. */
async function filterOf(db: Db, query: StaffRefundListQuery): Promise<StaffRefundFilter | null> {
  const text = query.q?.trim()
  if (text && /^RF\w+$/i.test(text)) return { state: query.state, refundNo: text.toUpperCase() }
  return memberSearchFilter(db, text, { state: query.state })
}

/** Refunds with their orders and members' phones. */
async function withOrders(db: Db, rows: RefundRow[]) {
  const [orders, phones, lines] = await Promise.all([
    ordersByIds(db, idsOf(rows, 'orderId')),
    memberPhones(db, idsOf(rows, 'memberId')),
    linesByRefund(db, idsOf(rows, 'id')),
  ])
  return rows.map((r) => ({
    refund: r,
    order: orders.get(r.orderId)!,
    phone: phones.get(r.memberId) ?? null,
    lines: lines.get(r.id),
  }))
}

/** A refund as staff read it: with its order, its member and what they need to decide. */
function staffView({ refund: r, order, phone, lines }: Awaited<ReturnType<typeof withOrders>>[number]): StaffRefund {
  return {
    ...toRefundView(r, order.orderNo, lines),
    order_title: order.title,
    order_amount_fen: order.amountFen,
    member_id: r.memberId,
    phone,
    last_error: r.lastError,
    retryable: r.state === 'failed' && r.provider !== null,
    retries: r.retries,
    retried_by: r.retriedBy,
    retried_at: r.retriedAt?.toISOString() ?? null,
  }
}

export function createStaffRefunds(db: Db) {
  return {
    /** Refunds for the console, with what staff need to decide: a page, or the CSV (REFUND_CSV_HEADER) of every match. */
    list: {
      page: async (query: StaffRefundListQuery) =>
        listing(refundList, db, query, await filterOf(db, query)).page(async (rows) =>
          (await withOrders(db, rows)).map(staffView),
        ),
      csv: async (query: StaffRefundListQuery) => {
        const time = (d: Date | null) => (d ? beijingDateTime(d) : '')
        return listing(refundList, db, query, await filterOf(db, query)).csv(
          REFUND_CSV_HEADER,
          async (rows: RefundRow[]) =>
            (await withOrders(db, rows)).map(({ refund: r, order, phone }) => [
              r.refundNo,
              order.orderNo,
              order.title,
              r.memberId,
              phone ?? '',
              r.kind,
              r.state,
              fenToYuan(r.amountFen),
              fenToYuan(order.amountFen),
              r.reason,
              r.decisionNote ?? '',
              time(r.createdAt),
              time(r.decidedAt),
              time(r.completedAt),
              r.lastError ?? '',
            ]),
        )
      },
    },
  }
}

export type StaffRefunds = ReturnType<typeof createStaffRefunds>
