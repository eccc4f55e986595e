import { and, desc, gte, isNotNull, lt, ne, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import type { ColumnPart } from '#server/db/prepared.ts'
import { orderItems, orders, type OrderKind, type PayMethod } from '#server/db/schema/orders.ts'

// The operators' dashboard: what the orders say about a period (index orders_paid_idx, its paid_at by skip scan).

/** The Beijing day of a timestamp column, as 'YYYY-MM-DD'. */
const beijingDay = (column: typeof orders.paidAt) =>
  sql<string>`to_char(${column} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`

export interface PaidOrderFigure {
  day: string
  kind: OrderKind
  payMethod: PayMethod
  fen: number
  orders: number
}

/** Orders paid in [from, to) by Beijing day, kind and payment method: the money they took and how many. */
export async function paidOrderFigures(db: DbOrTx, from: Date, to: Date): Promise<PaidOrderFigure[]> {
  const day = beijingDay(orders.paidAt)
  return db
    .select({
      day,
      kind: orders.kind,
      payMethod: orders.payMethod,
      fen: sql<number>`coalesce(sum(${orders.amountFen}), 0)::int`,
      orders: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(and(isNotNull(orders.paidAt), gte(orders.paidAt, from), lt(orders.paidAt, to)))
    .groupBy(day, orders.kind, orders.payMethod)
}

/**
 * The courses sold most in [from, to): order lines of paid orders, by count, then by their prices. Lines given back
 * do not count: an order refunded in full, and a line `refundedLine` (the refunds module's) says was refunded.
 */
export async function topSoldCourses(
  db: DbOrTx,
  from: Date,
  to: Date,
  limit: number,
  refundedLine: ColumnPart<boolean>,
) {
  const sold = sql<number>`count(*)::int`
  const fen = sql<number>`sum(${orderItems.priceFen})::int`
  return db
    .select({ courseId: sql<number>`${orderItems.courseId}`, sold, fen })
    .from(orderItems)
    .innerJoin(orders, sql`${orders.id} = ${orderItems.orderId}`)
    .where(
      and(
        isNotNull(orders.paidAt),
        gte(orders.paidAt, from),
        lt(orders.paidAt, to),
        isNotNull(orderItems.courseId),
        ne(orders.state, 'refunded'),
        sql`not ${sql.raw(refundedLine.sql('"order_items"'))}`,
      ),
    )
    .groupBy(orderItems.courseId)
    .orderBy(desc(sold), desc(fen), orderItems.courseId)
    .limit(limit)
}
