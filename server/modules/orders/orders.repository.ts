import { and, asc, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, courses, systemCourseItems } from '#server/db/schema/catalogue.ts'
import { vipPlans } from '#server/db/schema/vip.ts'
import { memberCoupons } from '#server/db/schema/coupons.ts'
import {
  orderEvents,
  orderItems,
  orders,
  type OrderKind,
  type OrderState,
  type PaymentProviderName,
} from '#server/db/schema/orders.ts'
import { paymentNotifications } from '#server/db/schema/payments.ts'
import { pointBalances, pointEntries } from '#server/db/schema/points.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { members } from '#server/db/schema/members.ts'

export type OrderRow = typeof orders.$inferSelect
export type NewOrder = typeof orders.$inferInsert
export type OrderItemRow = typeof orderItems.$inferSelect

const courseForSale = {
  id: courses.id,
  title: courses.title,
  priceFen: courses.priceFen,
  pointsPrice: courses.pointsPrice,
  isFree: courses.isFree,
  status: courses.status,
  type: courses.type,
  categoryId: courses.categoryId,
}
export type CourseForSale = { [K in keyof typeof courseForSale]: (typeof courses.$inferSelect)[K] }

export async function findCourse(db: DbOrTx, id: number): Promise<CourseForSale | null> {
  const [row] = await db.select(courseForSale).from(courses).where(eq(courses.id, id))
  return row ?? null
}

/**
 * A course as checkout needs it, in one statement: the course, its category and that category's parent (what
 * coupons match), and whether the member owns it now (see `ownedSql`).
 */
export async function findCourseForMember(db: DbOrTx, memberId: number, id: number, now: Date) {
  const [row] = await db
    .select({
      ...courseForSale,
      parentCategoryId: categories.parentId,
      owned: sql<boolean>`${ownedSql(sql`${memberId}::int`, sql`${courses.id}`, now)}`,
    })
    .from(courses)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .where(eq(courses.id, id))
  return row ?? null
}

/** The courses of `ids` that exist, in the order of `ids`. */
export async function findCourses(db: DbOrTx, ids: number[]): Promise<CourseForSale[]> {
  if (ids.length === 0) return []
  const rows = await db.select(courseForSale).from(courses).where(inArray(courses.id, ids))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export async function findVipPlan(db: DbOrTx, id: number) {
  const [row] = await db.select().from(vipPlans).where(eq(vipPlans.id, id))
  return row ?? null
}

/**
 * The ownership rule as SQL, for this query and for `payPendingOrder`: an entitlement that counts now gives the
 * member the course itself or a system course containing it (the same rule as canWatch).
 */
function ownedSql(memberId: SQL, courseId: SQL, now: Date) {
  return sql`exists (
      select 1 from ${entitlements} e
      where e.member_id = ${memberId}
        and e.revoked_at is null
        and (e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)
        and (e.course_id = ${courseId}
          or e.course_id in (select ${systemCourseItems.systemCourseId} from ${systemCourseItems} where ${systemCourseItems.courseId} = ${courseId})))`
}

/** Whether an entitlement that counts now gives the member this course (see `ownedSql`). */
export async function ownsCourse(db: DbOrTx, memberId: number, courseId: number, now: Date) {
  const result = await db.execute<{ owned: boolean }>(
    sql`select ${ownedSql(sql`${memberId}::int`, sql`${courseId}::int`, now)} as owned`,
  )
  return result.rows[0]?.owned === true
}

/** Which of `courseIds` the member owns now (see `ownedSql`), in one statement. */
export async function ownedCourseIds(db: DbOrTx, memberId: number, courseIds: number[], now: Date) {
  if (courseIds.length === 0) return new Set<number>()
  const result = await db.execute<{ id: number }>(
    sql`select c.id from unnest(${`{${courseIds.join(',')}}`}::int[]) as c(id) where ${ownedSql(sql`${memberId}::int`, sql`c.id`, now)}`,
  )
  return new Set(result.rows.map((r) => Number(r.id)))
}

// The same casing as the app's drizzle instance (server/db/database.ts), for the column names it renders.
const dialect = new PgDialect({ casing: 'snake_case' })

/**
 * Runs a hot statement as a named prepared statement on the pool, so PostgreSQL parses and plans it once per
 * connection instead of on every call (about 1 ms of server time for the payment statement). `name` must stay
 * tied to one SQL text; only the parameters vary. Inside a transaction it runs as an ordinary statement.
 */
export async function executePrepared<T extends pg.QueryResultRow>(db: DbOrTx, name: string, query: SQL): Promise<T[]> {
  const pool = (db as { $client?: pg.Pool }).$client
  if (!(pool instanceof pg.Pool)) return (await db.execute<T>(query)).rows as T[]
  const { sql: text, params } = dialect.sqlToQuery(query)
  return (await pool.query<T>({ name, text, values: params })).rows
}

export interface PendingPayment {
  orderNo: string
  amountFen: number
  provider: PaymentProviderName
  transactionId: string
  /** The payment's notification row, claimed as applied together with the payment. */
  notificationId: string
  raw: string
  actor: string
  /** Points the amount earns (config rules), credited unless the order earned points already. */
  pointsEarned: number
  at: Date
}

/**
 * The common case of a payment, in ONE statement (its own transaction, so all of it or none of it commits): a
 * pending order whose amount matches and none of whose courses the member owns yet becomes paid — the conditional
 * update `state = 'pending'` on the row, which concurrent deliveries of the same payment wait on and then find
 * paid — and in the same statement the notification is recorded as applied, the courses are granted, VIP days
 * added, the coupon marked used, the points earned credited with their ledger entry, and the `paid` event written
 * with the same data `grantOrder` records. It does exactly what the general path in payments.service does for
 * this case (the payment tests run both), in one round trip instead of a dozen.
 *
 * Returns the order id, or null when the order is not in that case (unknown, not pending, another amount, already
 * owned, more than one VIP item) and nothing was changed: the caller then takes the general path. A notification
 * already recorded as applied makes the statement fail on the unique index (nothing commits); the caller treats
 * that like null too.
 */
export async function payPendingOrder(db: DbOrTx, p: PendingPayment) {
  const at = sql`${p.at.toISOString()}::timestamptz`
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_pay_pending_order',
    sql`
    with paid_order as (
      update ${orders} o
      set state = 'paid', paid_at = ${at}, closed_at = null, provider = ${p.provider}, provider_txn_id = ${p.transactionId}, updated_at = ${at}
      where o.order_no = ${p.orderNo}
        and o.state = 'pending'
        and o.amount_fen = ${p.amountFen}::int
        and (o.kind in ('vip', 'amount')
          or not exists (select 1 from ${orderItems} i where i.order_id = o.id and i.course_id is not null
            and ${ownedSql(sql`o.member_id`, sql`i.course_id`, p.at)}))
        and (select count(*) from ${orderItems} i where i.order_id = o.id and i.vip_plan_id is not null and coalesce(i.vip_days, 0) <> 0) <= 1
      returning o.id, o.member_id, o.order_no, o.coupon_id
    ),
    claim_row as (
      insert into ${paymentNotifications} (provider, kind, notification_id, order_no, raw, verified, outcome, created_at)
      select ${p.provider}, 'payment', ${p.notificationId}, ${p.orderNo}, ${p.raw}, true, 'applied', ${at} from paid_order
      returning id
    ),
    paid_items as (
      select i.id, i.course_id, i.vip_days, i.vip_plan_id from ${orderItems} i join paid_order on i.order_id = paid_order.id
    ),
    grant_rows as (
      insert into ${entitlements} (member_id, course_id, source, source_ref, granted_at, expires_at)
      select paid_order.member_id, paid_items.course_id, 'purchase', paid_order.order_no, ${at}, null from paid_order, paid_items where paid_items.course_id is not null
      on conflict (source_ref, course_id) where source = 'purchase' do nothing
      returning id
    ),
    vip_item as (
      select paid_order.member_id, paid_items.vip_days from paid_order, paid_items where paid_items.vip_plan_id is not null and coalesce(paid_items.vip_days, 0) <> 0
    ),
    vip_row as (
      insert into ${vipMemberships} (member_id, expires_at, updated_at)
      select member_id, ${at} + vip_days * interval '1 day', ${at} from vip_item
      on conflict (member_id) do update
        set expires_at = greatest(vip_memberships.expires_at, ${at}) + (select vip_days from vip_item) * interval '1 day', updated_at = ${at}
      returning expires_at
    ),
    coupon_row as (
      update ${memberCoupons} c set state = 'used', used_at = ${at}
      from paid_order where paid_order.coupon_id is not null and c.order_id = paid_order.id and c.state = 'reserved'
      returning c.id
    ),
    earning as (
      select paid_order.member_id, paid_order.id as order_id from paid_order
      where ${p.pointsEarned}::int > 0
        and coalesce((select sum(e.delta) from ${pointEntries} e where e.order_id = paid_order.id and e.reason in ('order_earned', 'order_earned_reversed')), 0) = 0
    ),
    balance_row as (
      insert into ${pointBalances} (member_id, balance, updated_at)
      select member_id, ${p.pointsEarned}::int, ${at} from earning
      on conflict (member_id) do update set balance = point_balances.balance + ${p.pointsEarned}::int, updated_at = ${at}
      returning member_id, balance
    ),
    entry_row as (
      insert into ${pointEntries} (member_id, delta, balance_after, reason, order_id, actor, note, created_at)
      select balance_row.member_id, ${p.pointsEarned}::int, balance_row.balance, 'order_earned', earning.order_id, 'system', null, ${at} from balance_row, earning
      returning id
    ),
    event_row as (
      insert into ${orderEvents} (order_id, from_state, to_state, reason, actor, data, created_at)
      select paid_order.id, 'pending', 'paid', 'paid', ${p.actor},
        jsonb_strip_nulls(jsonb_build_object(
          'transaction_id', ${p.transactionId}::text,
          'notification_id', ${p.notificationId}::text,
          'courses', (select jsonb_agg(course_id order by id) from paid_items where course_id is not null),
          'entitlements_added', case when exists (select 1 from paid_items where course_id is not null) then (select count(*) from grant_rows) end,
          'vip_days', (select vip_days from vip_item),
          'vip_expires_at', (select to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from vip_row),
          'points_earned', case when exists (select 1 from entry_row) then ${p.pointsEarned}::int end
        )),
        ${at}
      from paid_order
      returning id
    )
    select paid_order.id, (select count(*) from claim_row) as claimed from paid_order`,
  )
  return rows[0]?.id ?? null
}

export async function findMemberOpenid(db: DbOrTx, memberId: number) {
  const [row] = await db.select({ openid: members.wxOpenid }).from(members).where(eq(members.id, memberId))
  return row?.openid ?? null
}

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

export async function insertOrderItems(db: DbOrTx, items: (typeof orderItems.$inferInsert)[]) {
  if (items.length > 0) await db.insert(orderItems).values(items)
}

export async function insertOrderEvent(db: DbOrTx, event: typeof orderEvents.$inferInsert) {
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
  const [row] = await db
    .update(orders)
    .set({ ...set, state: to, updatedAt: now })
    .where(and(eq(orders.id, orderId), inArray(orders.state, [...from])))
    .returning()
  return row ?? null
}

export async function findOrderByNo(db: DbOrTx, orderNo: string) {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
  return row ?? null
}

/** Locks the order row for the rest of the transaction. */
export async function lockOrderByNo(db: DbOrTx, orderNo: string) {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo)).for('update')
  return row ?? null
}

export async function findItems(db: DbOrTx, orderIds: number[]) {
  if (orderIds.length === 0) return []
  return db.select().from(orderItems).where(inArray(orderItems.orderId, orderIds)).orderBy(asc(orderItems.id))
}

export async function findEvents(db: DbOrTx, orderId: number) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id))
}

/** A member's orders, newest first, `limit` of them with an id below `before`. */
export async function listMemberOrders(
  db: DbOrTx,
  memberId: number,
  filter: { kinds?: readonly OrderKind[]; exchanges?: boolean; before?: number; limit: number },
) {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.memberId, memberId),
        filter.kinds ? inArray(orders.kind, [...filter.kinds]) : undefined,
        // Courses exchanged for their points price: no money price at all.
        filter.exchanges ? and(eq(orders.payMethod, 'points'), eq(orders.originalFen, 0)) : undefined,
        filter.before === undefined ? undefined : lt(orders.id, filter.before),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(filter.limit)
}

/**
 * Grants the courses an order bought (source 'purchase', source_ref the order number). The unique index on
 * (source_ref, course_id) makes a second grant for the same order a no-op. Returns how many rows were added.
 */
export async function grantPurchases(
  db: DbOrTx,
  grant: { memberId: number; orderNo: string; courseIds: number[]; now: Date },
) {
  if (grant.courseIds.length === 0) return 0
  const rows = await db
    .insert(entitlements)
    .values(
      grant.courseIds.map((courseId) => ({
        memberId: grant.memberId,
        courseId,
        source: 'purchase' as const,
        sourceRef: grant.orderNo,
        grantedAt: grant.now,
        expiresAt: null,
      })),
    )
    .onConflictDoNothing({ target: [entitlements.sourceRef, entitlements.courseId], where: sql`source = 'purchase'` })
    .returning({ id: entitlements.id })
  return rows.length
}

/** Revokes what an order granted, and only that. */
export async function revokePurchases(db: DbOrTx, orderNo: string, now: Date) {
  const rows = await db
    .update(entitlements)
    .set({ revokedAt: now })
    .where(
      and(
        eq(entitlements.source, 'purchase'),
        eq(entitlements.sourceRef, orderNo),
        sql`${entitlements.revokedAt} is null`,
      ),
    )
    .returning({ id: entitlements.id })
  return rows.length
}

export async function findOrderById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id))
  return row ?? null
}

export async function lockOrderById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update')
  return row ?? null
}

export interface StaffOrderFilter {
  state?: OrderState
  kind?: OrderKind
  sp?: string
  /** Created at or after / before. */
  from?: Date
  to?: Date
  /** An order number, a member's phone or a member id. */
  q?: string
  before?: number
  limit: number
}

/** Orders for operators, newest first, with the member's phone. */
export async function searchOrders(db: DbOrTx, f: StaffOrderFilter) {
  const q = f.q?.trim()
  const qCondition = !q
    ? undefined
    : /^ZX\d{18}$/.test(q)
      ? eq(orders.orderNo, q)
      : /^1\d{10}$/.test(q)
        ? eq(members.phone, q)
        : /^\d{1,9}$/.test(q)
          ? eq(orders.memberId, Number(q))
          : sql`false`
  return db
    .select({ order: orders, phone: members.phone })
    .from(orders)
    .innerJoin(members, eq(members.id, orders.memberId))
    .where(
      and(
        f.state ? eq(orders.state, f.state) : undefined,
        f.kind ? eq(orders.kind, f.kind) : undefined,
        f.sp ? eq(orders.sp, f.sp) : undefined,
        f.from ? sql`${orders.createdAt} >= ${f.from.toISOString()}::timestamptz` : undefined,
        f.to ? lt(orders.createdAt, f.to) : undefined,
        qCondition,
        f.before === undefined ? undefined : lt(orders.id, f.before),
      ),
    )
    .orderBy(desc(orders.id))
    .limit(f.limit)
}
