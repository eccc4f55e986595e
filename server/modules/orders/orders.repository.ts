import { and, asc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { tableList } from '#server/db/list.ts'
import { eqIfGiven, newestByTime, rowsBy, rowsWhereIn, transition, type TimeCursor } from '#server/db/rows.ts'
import {
  executePrepared,
  preparedText,
  queryPrepared,
  type PreparedText,
  type ColumnPart,
  type StatementPart,
} from '#server/db/prepared.ts'
import {
  orderEvents,
  orderItems,
  orders,
  type OrderKind,
  type OrderState,
  type PaymentProviderName,
} from '#server/db/schema/orders.ts'

export type OrderRow = typeof orders.$inferSelect
export type NewOrder = typeof orders.$inferInsert
export type OrderItemRow = typeof orderItems.$inferSelect
export type NewOrderItem = Omit<OrderItemRow, 'id' | 'orderId'>
export type NewOrderEvent = typeof orderEvents.$inferInsert

export async function findPendingOrder(db: DbOrTx, memberId: number, kind: OrderKind, target: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(eq(orders.memberId, memberId), eq(orders.kind, kind), eq(orders.target, target), eq(orders.state, 'pending')),
    )
  return row ?? null
}

/** Inserts a pending order, or nothing when the member already has one for this target (another tap won). */
export async function insertPendingOrder(db: DbOrTx, values: NewOrder) {
  const [row] = await db
    .insert(orders)
    .values({ ...values, state: 'pending' })
    .onConflictDoNothing({ target: [orders.memberId, orders.kind, orders.target], where: sql`state = 'pending'` })
    .returning()
  return row ?? null
}

/** A new order's items and its first event, in one statement. */
export async function insertItemsAndEvent(db: DbOrTx, orderId: number, items: NewOrderItem[], event: NewOrderEvent) {
  const column = <T>(pick: (i: NewOrderItem) => T) => sql.param(items.map(pick))
  await db.execute(sql`
    with item_rows as (
      insert into ${orderItems} (order_id, course_id, vip_plan_id, vip_days, title, price_fen)
      select ${orderId}::int, i.course_id, i.vip_plan_id, i.vip_days, i.title, i.price_fen
      from unnest(${column((i) => i.courseId)}::int[], ${column((i) => i.vipPlanId)}::int[],
        ${column((i) => i.vipDays)}::int[], ${column((i) => i.title)}::text[], ${column((i) => i.priceFen)}::int[])
        as i(course_id, vip_plan_id, vip_days, title, price_fen)
      returning id
    )
    insert into ${orderEvents} (order_id, from_state, to_state, reason, actor, data, created_at)
    values (${orderId}::int, ${event.fromState ?? null}, ${event.toState}, ${event.reason}, ${event.actor},
      ${event.data === undefined || event.data === null ? null : JSON.stringify(event.data)}::jsonb,
      ${event.createdAt.toISOString()}::timestamptz)`)
}

export async function insertOrderEvent(db: DbOrTx, event: NewOrderEvent) {
  await db.insert(orderEvents).values(event)
}

/**
 * The one way an order changes state: a conditional update that only happens when the order is still in one of
 * `from`. Returns the updated row, or null when another transition got there first.
 */
export async function transitionOrder(
  db: DbOrTx,
  orderId: number,
  from: readonly OrderState[],
  to: OrderState,
  set: Partial<Pick<OrderRow, 'paidAt' | 'closedAt' | 'provider' | 'providerTxnId' | 'refundedFen' | 'payMethod'>>,
  now: Date,
) {
  return transition(db, orders, orderId, from, { ...set, state: to, updatedAt: now })
}

// An order by number or by id; `lock…` locks its row for the rest of the transaction.
export const { find: findOrderByNo, lock: lockOrderByNo } = rowsBy(orders, orders.orderNo)
export const { find: findOrderById, lock: lockOrderById } = rowsBy(orders, orders.id)

export async function findOrdersByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return db.select().from(orders).where(inArray(orders.id, ids))
}

export async function findItems(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return []
  return db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id))
}

export async function findEvents(db: DbOrTx, orderId: number) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id))
}

/** An order of a member's list with its items, in the row shapes of `orders` and `order_items`. */
export interface OrderWithItems extends OrderRow {
  items: OrderItemRow[]
}

// The member's order list (/order, /order4) is hot: one prepared statement per shape of page (which filters, first
// page or not; at most 8 texts, per column another module adds), each order with its items aggregated, on the
// (member_id, id) index. Columns are named as drizzle names the row's fields, so the rows are `OrderRow`s as they
// come.
const orderListColumns = `o.id, o.order_no as "orderNo", o.member_id as "memberId", o.kind, o.target, o.title,
  o.amount_fen as "amountFen", o.original_fen as "originalFen", o.discount_fen as "discountFen",
  o.points_used as "pointsUsed", o.coupon_id as "couponId", o.state, o.pay_method as "payMethod", o.provider,
  o.provider_txn_id as "providerTxnId", o.refunded_fen as "refundedFen", o.sp, o.created_at as "createdAt",
  o.expires_at as "expiresAt", o.paid_at as "paidAt", o.closed_at as "closedAt", o.updated_at as "updatedAt"`
const orderListStatements = new Map<string, PreparedText>()

function orderListStatement(kinds: boolean, exchanges: boolean, after: boolean, column?: ColumnPart<unknown>) {
  const key = `${Number(kinds)}${Number(exchanges)}${Number(after)}${column ? `_${column.name}` : ''}`
  let statement = orderListStatements.get(key)
  if (!statement) {
    const where = [
      'o.member_id = $1',
      kinds && 'o.kind = any($3::text[])',
      exchanges && `o.pay_method = 'points' and o.original_fen = 0`,
      after && `o.id < $${kinds ? 4 : 3}`,
    ].filter(Boolean)
    statement = preparedText(
      `orders_member_list_${key}`,
      `select ${orderListColumns},
         coalesce((select json_agg(json_build_object('id', i.id, 'orderId', i.order_id, 'courseId', i.course_id,
             'vipPlanId', i.vip_plan_id, 'vipDays', i.vip_days, 'title', i.title, 'priceFen', i.price_fen)
             order by i.id)
           from order_items i where i.order_id = o.id), '[]') as items${column ? `,\n         ${column.sql('o.id')} as "column"` : ''}
       from orders o where ${where.join(' and ')}
       order by o.id desc limit $2`,
    )
    if (column) claimColumnName(column)
    orderListStatements.set(key, statement)
  }
  return statement
}

/** Which column part each name was first composed with: one name must keep one SQL text. */
const columnTexts = new Map<string, string>()

/** Checks, as a statement is first built, that no other column part has used `column`'s name (names key on it). */
function claimColumnName(column: ColumnPart<unknown>) {
  const text = column.sql('o.id')
  const known = columnTexts.get(column.name)
  if (known === undefined) columnTexts.set(column.name, text)
  else if (known !== text) throw new Error(`Two column parts are named ${column.name}: statement names key on it.`)
}

/**
 * A member's orders, newest first, `limit` of them with an id below `before`, each with its items (oldest first)
 * and, when another module's `column` is given, its value as that module reads it.
 */
export async function listMemberOrdersWithItems<T = never>(
  db: DbOrTx,
  memberId: number,
  filter: { kinds?: readonly OrderKind[]; exchanges?: boolean; before?: number; limit: number },
  column?: ColumnPart<T>,
): Promise<(OrderWithItems & { column?: T })[]> {
  const statement = orderListStatement(!!filter.kinds, !!filter.exchanges, filter.before !== undefined, column)
  // The parameters in the order the statement numbers them: the kinds, then the cursor, each only when given.
  const values: unknown[] = [memberId, filter.limit]
  if (filter.kinds) values.push([...filter.kinds])
  if (filter.before !== undefined) values.push(filter.before)
  const rows = await queryPrepared<OrderWithItems & { column?: unknown }>(db, statement, values)
  // The driver's rows are this call's own: read the column in place.
  if (column) for (const r of rows) r.column = column.read(r.column)
  return rows as (OrderWithItems & { column?: T })[]
}

const orderColumnStatements = new Map<string, PreparedText>()

/** Another module's column (such as its newest refund) of one order, read as that module reads it. */
export async function orderColumn<T>(db: DbOrTx, column: ColumnPart<T>, orderId: number): Promise<T> {
  let statement = orderColumnStatements.get(column.name)
  if (!statement) {
    claimColumnName(column)
    statement = preparedText(`orders_column_${column.name}`, `select ${column.sql('$1::int')} as "column"`)
    orderColumnStatements.set(column.name, statement)
  }
  const [row] = await queryPrepared<{ column: unknown }>(db, statement, [orderId])
  return column.read(row?.column ?? null)
}

/**
 * A member's courses exchanged for points (/order4), newest first by creation time and id, `limit` of them before
 * `before` (exclusive): the points source of the member's exchange record (server/use-cases/list-exchange-records.ts).
 */
export async function listMemberPointsExchanges(
  db: DbOrTx,
  memberId: number,
  before: TimeCursor | null,
  limit: number,
) {
  return newestByTime(db, orders, orders.createdAt, { before, limit }, [
    eq(orders.memberId, memberId),
    eq(orders.payMethod, 'points'),
    eq(orders.originalFen, 0),
  ])
}

/**
 * Pending orders past their expiry, the earliest first (orders_pending_idx: its predicate written out, since a
 * generic plan, server/db/database.ts, uses a partial index only for a literal).
 */
export async function findExpiredPending(db: DbOrTx, now: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(and(sql`${orders.state} = 'pending'`, lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit)
}

/** Pending orders old enough that their notification should have come, for the reconciliation sweep. */
export async function findUnansweredPending(db: DbOrTx, createdBefore: Date, now: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.state, 'pending'),
        lte(orders.createdAt, createdBefore),
        sql`${orders.expiresAt} > ${now.toISOString()}::timestamptz`,
        inArray(orders.payMethod, ['wechat_jsapi', 'wechat_h5', 'wechat_native', 'alipay_wap']),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(limit)
}

export interface StaffOrderFilter {
  state?: OrderState
  kind?: OrderKind
  sp?: string
  /** Created at or after / before. */
  from?: Date
  to?: Date
  /** An order number. */
  orderNo?: string
  /** A member; null: a member that does not exist (nothing matches). */
  memberId?: number | null
  /** Orders with a line for this course (index order_items_course_idx). */
  courseId?: number
}

const staffSortable = { created_at: orders.id, amount_fen: orders.amountFen, paid_at: orders.paidAt }

/**
 * Orders for operators: one page in the chosen order (created_at follows the id, which its index serves; orders
 * never paid last), and how many the filter matches.
 */
export const staffOrderList = tableList(orders, staffOrderWhere, staffSortable, ['paid_at'])

function staffOrderWhere(f: StaffOrderFilter) {
  return and(
    f.state ? eq(orders.state, f.state) : undefined,
    f.kind ? eq(orders.kind, f.kind) : undefined,
    f.sp ? eq(orders.sp, f.sp) : undefined,
    f.from ? sql`${orders.createdAt} >= ${f.from.toISOString()}::timestamptz` : undefined,
    f.to ? lt(orders.createdAt, f.to) : undefined,
    eqIfGiven(orders.orderNo, f.orderNo),
    f.memberId === undefined ? undefined : f.memberId === null ? sql`false` : eq(orders.memberId, f.memberId),
    f.courseId === undefined
      ? undefined
      : sql`${orders.id} in (select ${orderItems.orderId} from ${orderItems} where ${orderItems.courseId} = ${f.courseId})`,
  )
}

// ---- The payment fast path (server/use-cases/confirm-payment.ts) ----------------------------------------------

/** What a settled order was: its member, the courses it bought and the VIP days it added. */
export interface SettledOrder {
  memberId: number
  courseIds: number[]
  vipDays: number
}

/** Which pending order a payment settles, and the `paid` event it writes. */
export interface SettleOrder {
  orderNo: string
  amountFen: number
  provider: PaymentProviderName
  transactionId: string
  actor: string
  data: Record<string, unknown>
  at: Date
}

/**
 * Pays a pending order in ONE prepared statement: the conditional update `state = 'pending'` (concurrent
 * deliveries of the same payment wait on the row and then find it paid), its `paid` event, and around it the
 * other modules' parts, each written by the module that owns those tables. Before the update, parts' `before`
 * CTEs may read `payable_courses` (course_id: the courses the order buys; none for VIP and amount orders) and
 * their guards decide whether the fast path may pay it (the access module's: the member owns none of them yet).
 * After it, their CTEs (the notification claimed, the grants, the coupon, the points) may read `paid_order` (id,
 * member_id, order_no, coupon_id: empty when the order was not payable) and `paid_items` (id, course_id,
 * vip_plan_id, vip_days); their summaries go into the event's data after `data`. Returns what was paid, or null when
 * the order was not pending for this amount (or held more than one VIP item, or a guard said no) and nothing was
 * written; an
 * error from a part (a replayed claim) fails the whole statement.
 */
export async function settlePendingOrder(
  db: DbOrTx,
  p: SettleOrder,
  parts: StatementPart[],
): Promise<SettledOrder | null> {
  const at = sql`${p.at.toISOString()}::timestamptz`
  const before = parts.flatMap((part) => (part.before ? [sql`${part.before},`] : []))
  const rows = await executePrepared<{ member_id: number; course_ids: number[]; vip_days: number | null }>(
    db,
    `zixue_settle_${parts.map((part) => part.name).join('_')}`,
    sql`
    with payable_order as (
      select o.id, o.kind from ${orders} o where o.order_no = ${p.orderNo}
    ),
    payable_courses as (
      select i.course_id from ${orderItems} i join payable_order po on i.order_id = po.id
      where i.course_id is not null and po.kind not in ('vip', 'amount')
    ),
    ${sql.join(before, sql` `)}
    paid_order as (
      update ${orders} o
      set state = 'paid', paid_at = ${at}, closed_at = null, provider = ${p.provider}, provider_txn_id = ${p.transactionId}, updated_at = ${at}
      where o.id = (select id from payable_order) and o.state = 'pending' and o.amount_fen = ${p.amountFen}::int
        -- Tuition payments (issue 15) move an enrolment too: the general path pays them.
        and o.kind <> 'tuition'
        and (select count(*) from ${orderItems} i where i.order_id = o.id and i.vip_plan_id is not null and coalesce(i.vip_days, 0) <> 0) <= 1
        ${sql.join(
          parts.flatMap((part) => (part.guard ? [sql`and (${part.guard})`] : [])),
          sql` `,
        )}
      returning o.id, o.member_id, o.order_no, o.coupon_id
    ),
    paid_items as (
      select i.id, i.course_id, i.vip_plan_id, i.vip_days from ${orderItems} i join paid_order on i.order_id = paid_order.id
    ),
    ${sql.join(
      parts.map((part) => part.ctes),
      sql`,`,
    )},
    event_row as (
      insert into ${orderEvents} (order_id, from_state, to_state, reason, actor, data, created_at)
      select paid_order.id, 'pending', 'paid', 'paid', ${p.actor},
        jsonb_strip_nulls(${JSON.stringify(p.data)}::jsonb${sql.join(parts.map((part) => sql` || ${part.summary}`))}), ${at}
      from paid_order
      returning id
    )
    select paid_order.member_id,
      coalesce((select array_agg(course_id order by id) from paid_items where course_id is not null), '{}'::int[]) as course_ids,
      (select vip_days from paid_items where vip_plan_id is not null and coalesce(vip_days, 0) <> 0) as vip_days
    from paid_order`,
  )
  const [row] = rows
  return row ? { memberId: row.member_id, courseIds: row.course_ids, vipDays: row.vip_days ?? 0 } : null
}

/** These orders by order number, any state (in no order); large lists are read in chunks. */
export function findOrdersByNos(db: DbOrTx, orderNos: readonly string[]) {
  return rowsWhereIn(db, orders, orders.orderNo, orderNos)
}

/** Orders whose money `provider` took within [from, to) (orders_paid_idx). */
export async function findPaidBetween(db: DbOrTx, provider: PaymentProviderName, from: Date, to: Date) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.provider, provider), gte(orders.paidAt, from), lt(orders.paidAt, to)))
}
