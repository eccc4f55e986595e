import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { courses, systemCourseItems, vipPlans } from '#server/db/schema/catalogue.ts'
import {
  orderEvents,
  orderItems,
  orders,
  type OrderKind,
  type OrderState,
} from '#server/db/schema/commerce.ts'
import { entitlements } from '#server/db/schema/entitlements.ts'
import { members } from '#server/db/schema/members.ts'

export type OrderRow = typeof orders.$inferSelect
export type NewOrder = typeof orders.$inferInsert
export type OrderItemRow = typeof orderItems.$inferSelect

export async function findCourse(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: courses.id, title: courses.title, priceFen: courses.priceFen, isFree: courses.isFree, status: courses.status, type: courses.type })
    .from(courses)
    .where(eq(courses.id, id))
  return row ?? null
}

export async function findVipPlan(db: DbOrTx, id: number) {
  const [row] = await db.select().from(vipPlans).where(eq(vipPlans.id, id))
  return row ?? null
}

/**
 * Whether an entitlement that counts now gives the member this course: to the course itself or to a system
 * course containing it (the same rule as canWatch).
 */
export async function ownsCourse(db: DbOrTx, memberId: number, courseId: number, now: Date) {
  const result = await db.execute<{ owned: boolean }>(sql`
    select exists (
      select 1 from ${entitlements} e
      where e.member_id = ${memberId}
        and e.revoked_at is null
        and (e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)
        and (e.course_id = ${courseId}
          or e.course_id in (select ${systemCourseItems.systemCourseId} from ${systemCourseItems} where ${systemCourseItems.courseId} = ${courseId}))
    ) as owned`)
  return result.rows[0]?.owned === true
}

export async function findMemberOpenid(db: DbOrTx, memberId: number) {
  const [row] = await db.select({ openid: members.wxOpenid }).from(members).where(eq(members.id, memberId))
  return row?.openid ?? null
}

export async function findPendingOrder(db: DbOrTx, memberId: number, kind: OrderKind, target: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.memberId, memberId), eq(orders.kind, kind), eq(orders.target, target), eq(orders.state, 'pending')))
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
export async function listMemberOrders(db: DbOrTx, memberId: number, filter: { kinds?: readonly OrderKind[]; before?: number; limit: number }) {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.memberId, memberId),
        filter.kinds ? inArray(orders.kind, [...filter.kinds]) : undefined,
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
export async function grantPurchases(db: DbOrTx, grant: { memberId: number; orderNo: string; courseIds: number[]; now: Date }) {
  if (grant.courseIds.length === 0) return 0
  const rows = await db
    .insert(entitlements)
    .values(grant.courseIds.map((courseId) => ({ memberId: grant.memberId, courseId, source: 'purchase' as const, sourceRef: grant.orderNo, grantedAt: grant.now, expiresAt: null })))
    .onConflictDoNothing({ target: [entitlements.sourceRef, entitlements.courseId], where: sql`source = 'purchase'` })
    .returning({ id: entitlements.id })
  return rows.length
}

/** Revokes what an order granted, and only that. */
export async function revokePurchases(db: DbOrTx, orderNo: string, now: Date) {
  const rows = await db
    .update(entitlements)
    .set({ revokedAt: now })
    .where(and(eq(entitlements.source, 'purchase'), eq(entitlements.sourceRef, orderNo), sql`${entitlements.revokedAt} is null`))
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
