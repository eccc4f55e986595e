import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { memberIdFromSearch, memberPhones } from '#server/modules/members/members.service.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingDateTime, beijingDayFromText } from '#shared/time.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import {
  findEvents,
  findItems,
  findOrderByNo,
  staffOrderList,
  type OrderItemRow,
  type OrderRow,
  type StaffOrderFilter,
} from './orders.repository.ts'
import type { StaffOrderQuery } from './orders.schema.ts'
import { toOrderView } from './orders.service.ts'

const ORDER_CSV_HEADER = [
  '订单号',
  '会员ID',
  '手机号',
  '类型',
  '标题',
  '应付(元)',
  '原价(元)',
  '优惠(元)',
  '积分',
  '状态',
  '支付方式',
  '支付平台',
  '交易号',
  '退款(元)',
  '推广来源',
  '下单时间',
  '支付时间',
  '关闭时间',
]

function exportRow(o: OrderRow, phone: string | null) {
  const time = (d: Date | null) => (d ? beijingDateTime(d) : '')
  return [
    o.orderNo,
    o.memberId,
    phone,
    o.kind,
    o.title,
    fenToYuan(o.amountFen),
    fenToYuan(o.originalFen),
    fenToYuan(o.discountFen),
    o.pointsUsed,
    o.state,
    o.payMethod,
    o.provider,
    o.providerTxnId,
    fenToYuan(o.refundedFen),
    o.sp,
    time(o.createdAt),
    time(o.paidAt),
    time(o.closedAt),
  ]
}

/** An order as the console lists it: the member's view with its member, their phone and how it was paid. */
function staffOrderView(o: OrderRow, items: OrderItemRow[], phones: Map<number, string | null>) {
  return {
    ...toOrderView(o, items),
    member_id: o.memberId,
    phone: phones.get(o.memberId) ?? null,
    sp: o.sp,
    provider: o.provider,
    provider_txn_id: o.providerTxnId,
  }
}

/**
 * Orders for operators: search and CSV export (server/modules/orders/orders.routes.ts). The query `q` is an
 * order number, a member's phone (looked up at the members module) or a member id.
 */
export function createStaffOrderService(deps: { db: Db }) {
  const { db } = deps

  async function filterOf(q: StaffOrderQuery): Promise<StaffOrderFilter> {
    const text = q.q?.trim()
    const byText: Pick<StaffOrderFilter, 'orderNo' | 'memberId'> = !text
      ? {}
      : /^ZX\d{18}$/.test(text)
        ? { orderNo: text }
        : { memberId: await memberIdFromSearch(db, text) }
    return {
      state: q.state,
      kind: q.kind,
      sp: q.sp || undefined,
      courseId: q.course_id,
      from: q.from ? beijingDayFromText(q.from) : undefined,
      to: q.to ? beijingDayFromText(q.to, 1) : undefined,
      ...byText,
    }
  }

  return {
    /** One order with its lines, its member's phone and its whole event log (GET /api/admin/orders/:order_no). */
    async detail(orderNo: string) {
      const order = await findOrderByNo(db, orderNo)
      if (!order) throw new AppError(Codes.NotFound, `订单 ${orderNo} 不存在`)
      const [items, events, phones] = await Promise.all([
        findItems(db, [order.id]),
        findEvents(db, order.id),
        memberPhones(db, [order.memberId]),
      ])
      return {
        ...staffOrderView(order, items, phones),
        events: events.map((e) => ({
          from: e.fromState,
          to: e.toState,
          reason: e.reason,
          actor: e.actor,
          data: e.data ?? null,
          at: e.createdAt.toISOString(),
        })),
      }
    },

    /**
     * Orders by state, kind, sp, Beijing date range and order number / phone / member id, newest first: a page, or
     * the CSV (ORDER_CSV_HEADER: yuan, Beijing time) of every match.
     */
    search: {
      page: async (query: StaffOrderQuery) =>
        listing(staffOrderList, db, query, await filterOf(query)).page(async (rows) => {
          const [items, phones] = await Promise.all([
            findItems(db, idsOf(rows, 'id')),
            memberPhones(db, idsOf(rows, 'memberId')),
          ])
          return rows.map((o) => staffOrderView(o, items, phones))
        }),
      csv: async (query: StaffOrderQuery) =>
        listing(staffOrderList, db, query, await filterOf(query)).csv(ORDER_CSV_HEADER, async (rows: OrderRow[]) => {
          const phones = await memberPhones(db, idsOf(rows, 'memberId'))
          return rows.map((o) => exportRow(o, phones.get(o.memberId) ?? null))
        }),
    },
  }
}

export type StaffOrderService = ReturnType<typeof createStaffOrderService>
