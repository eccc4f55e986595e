import { stringify } from 'csv-stringify/sync'
import type { z } from 'zod'
import type { Db } from '#server/db/database.ts'
import { memberIdByPhone, memberPhones } from '#server/modules/members/members.service.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingDateTime, beijingDayFromText } from '#shared/time.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  findEvents,
  findItems,
  findOrderByNo,
  searchOrders,
  type OrderRow,
  type StaffOrderFilter,
} from './orders.repository.ts'
import type { StaffOrderExportQuery, StaffOrderQuery } from './orders.schema.ts'
import { toOrderView } from './orders.service.ts'
import { pageById } from '#server/http/cursor.ts'

const EXPORT_MAX_ROWS = 10_000
const EXPORT_BATCH = 1000

const EXPORT_HEADER = [
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

/**
 * Orders for operators: search and CSV export (server/modules/orders/orders.routes.ts). The query `q` is an
 * order number, a member's phone (looked up at the members module) or a member id.
 */
export function createStaffOrderService(deps: { db: Db }) {
  const { db } = deps

  async function filterOf(q: z.infer<typeof StaffOrderExportQuery>): Promise<Omit<StaffOrderFilter, 'limit'>> {
    const text = q.q?.trim()
    const byText: Pick<StaffOrderFilter, 'orderNo' | 'memberId'> = !text
      ? {}
      : /^ZX\d{18}$/.test(text)
        ? { orderNo: text }
        : /^1\d{10}$/.test(text)
          ? { memberId: await memberIdByPhone(db, text) }
          : /^\d{1,9}$/.test(text)
            ? { memberId: Number(text) }
            : { memberId: null }
    return {
      state: q.state,
      kind: q.kind,
      sp: q.sp || undefined,
      from: q.from ? beijingDayFromText(q.from) : undefined,
      to: q.to ? beijingDayFromText(q.to, 1) : undefined,
      ...byText,
    }
  }

  return {
    /** One order for operators: what the list shows, and its event log (every state change, oldest first). */
    async detail(orderNo: string) {
      const order = await findOrderByNo(db, orderNo)
      if (!order) throw new AppError(Codes.NotFound, '订单不存在')
      const [items, events, phones] = await Promise.all([
        findItems(db, [order.id]),
        findEvents(db, order.id),
        memberPhones(db, [order.memberId]),
      ])
      return {
        ...toOrderView(order, items),
        member_id: order.memberId,
        phone: phones.get(order.memberId) ?? null,
        sp: order.sp,
        provider: order.provider,
        provider_txn_id: order.providerTxnId,
        events: events.map((e) => ({
          from: e.fromState,
          to: e.toState,
          reason: e.reason,
          at: e.createdAt.toISOString(),
        })),
      }
    },

    /** Orders by state, kind, sp, Beijing date range and order number / phone / member id, newest first. */
    async search(query: z.infer<typeof StaffOrderQuery>) {
      const rows = await searchOrders(db, { ...(await filterOf(query)), before: query.cursor, limit: query.limit + 1 })
      const { page, nextCursor } = pageById(rows, query.limit)
      const orderIds = page.map((o) => o.id)
      const memberIds = page.map((o) => o.memberId)
      const [items, phones] = await Promise.all([findItems(db, orderIds), memberPhones(db, memberIds)])
      return {
        list: page.map((o) => ({
          ...toOrderView(o, items),
          member_id: o.memberId,
          phone: phones.get(o.memberId) ?? null,
          sp: o.sp,
          provider: o.provider,
          provider_txn_id: o.providerTxnId,
        })),
        next_cursor: nextCursor,
      }
    },

    /**
     * The same search as CSV (UTF-8 with BOM for Excel, CRLF), at most 10,000 rows, amounts in yuan, Beijing
     * times; a cell that a spreadsheet would read as a formula is prefixed with '.
     */
    async exportCsv(query: z.infer<typeof StaffOrderExportQuery>) {
      const filter = await filterOf(query)
      const records: unknown[][] = [EXPORT_HEADER]
      let before: number | undefined
      while (records.length - 1 < EXPORT_MAX_ROWS) {
        const rows = await searchOrders(db, {
          ...filter,
          before,
          limit: Math.min(EXPORT_BATCH, EXPORT_MAX_ROWS - (records.length - 1)),
        })
        const phones = await memberPhones(
          db,
          rows.map((o) => o.memberId),
        )
        for (const o of rows) records.push(exportRow(o, phones.get(o.memberId) ?? null))
        if (rows.length < EXPORT_BATCH) break
        before = rows[rows.length - 1]!.id
      }
      return stringify(records, { bom: true, record_delimiter: '\r\n', escape_formulas: true })
    },
  }
}

export type StaffOrderService = ReturnType<typeof createStaffOrderService>
