import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { executePrepared } from '#server/modules/orders/orders.repository.ts'
import { idempotencyKeys, orders } from '#server/db/schema/orders.ts'
import { paymentNotifications, type NotificationOutcome } from '#server/db/schema/payments.ts'
import { refunds, type RefundState } from '#server/db/schema/refunds.ts'

export type RefundRow = typeof refunds.$inferSelect
export type NotificationRow = typeof paymentNotifications.$inferInsert

const RAW_MAX = 16_000

/** The body as stored with a notification (capped in length). */
export function storedRaw(raw: string) {
  return raw.slice(0, RAW_MAX)
}

/**
 * Records an applied notification. Returns false when this provider notification was applied before (the
 * unique index on applied rows): the caller then changes nothing.
 */
export async function claimNotification(db: DbOrTx, row: Omit<NotificationRow, 'outcome' | 'verified'>) {
  const inserted = await db
    .insert(paymentNotifications)
    .values({ ...row, raw: row.raw.slice(0, RAW_MAX), verified: true, outcome: 'applied' })
    .onConflictDoNothing({
      target: [paymentNotifications.provider, paymentNotifications.kind, paymentNotifications.notificationId],
      where: sql`outcome = 'applied'`,
    })
    .returning({ id: paymentNotifications.id })
  return inserted[0]?.id ?? null
}

/**
 * Logs a replay in one statement when this provider notification is already recorded as applied (committed).
 * Returns false when it is not (or not yet: one still in flight is not visible), and then nothing is written.
 */
export async function logIfReplay(db: DbOrTx, row: Omit<NotificationRow, 'outcome' | 'verified' | 'detail'>) {
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_log_if_replay',
    sql`
    insert into ${paymentNotifications} (provider, kind, notification_id, order_no, raw, verified, outcome, detail, created_at)
    select ${row.provider}, ${row.kind}, ${row.notificationId}, ${row.orderNo ?? null}, ${storedRaw(row.raw)}, true, 'duplicate', 'replay', ${row.createdAt.toISOString()}::timestamptz
    where exists (
      select 1 from ${paymentNotifications} n
      where n.provider = ${row.provider} and n.kind = ${row.kind} and n.notification_id = ${row.notificationId} and n.outcome = 'applied'
    )
    returning id`,
  )
  return rows.length > 0
}

/** Changes an applied row's outcome (it turned out to change nothing). */
export async function markNotification(db: DbOrTx, id: number, outcome: NotificationOutcome, detail: string | null) {
  await db.update(paymentNotifications).set({ outcome, detail }).where(eq(paymentNotifications.id, id))
}

/** Logs a notification that changed nothing (refused, or a replay). */
export async function logNotification(db: DbOrTx, row: NotificationRow) {
  await db
    .insert(paymentNotifications)
    .values({ ...row, raw: row.raw.slice(0, RAW_MAX), detail: row.detail?.slice(0, 500) ?? null })
}

export async function insertRefund(db: DbOrTx, row: typeof refunds.$inferInsert) {
  const [inserted] = await db.insert(refunds).values(row).returning()
  return inserted!
}

export async function lockRefundByNo(db: DbOrTx, refundNo: string) {
  const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, refundNo)).for('update')
  return row ?? null
}

export async function findRefund(db: DbOrTx, id: number) {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id))
  return row ?? null
}

/** Conditional refund transition, like orders: null when the refund was no longer in `from`. */
export async function transitionRefund(
  db: DbOrTx,
  id: number,
  from: readonly RefundState[],
  to: RefundState,
  set: Partial<
    Pick<
      RefundRow,
      | 'providerRefundId'
      | 'completedAt'
      | 'lastError'
      | 'sentAt'
      | 'decidedAt'
      | 'decidedBy'
      | 'decisionNote'
      | 'amountFen'
    >
  >,
  now: Date,
) {
  const [row] = await db
    .update(refunds)
    .set({ ...set, state: to, updatedAt: now })
    .where(and(eq(refunds.id, id), inArray(refunds.state, [...from])))
    .returning()
  return row ?? null
}

export async function noteRefundAttempt(
  db: DbOrTx,
  id: number,
  set: { sentAt: Date; providerRefundId?: string | null; lastError?: string | null },
  now: Date,
) {
  await db
    .update(refunds)
    .set({ ...set, updatedAt: now })
    .where(and(eq(refunds.id, id), eq(refunds.state, 'processing')))
}

/** Refunds to send, or to send again because no final answer came: never sent, or sent before `sentBefore`. */
export async function findRefundsToSend(db: DbOrTx, sentBefore: Date, limit: number) {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.state, 'processing'), or(isNull(refunds.sentAt), lt(refunds.sentAt, sentBefore))))
    .orderBy(asc(refunds.id))
    .limit(limit)
}

export async function findExpiredPending(db: DbOrTx, now: Date, limit: number) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.state, 'pending'), lte(orders.expiresAt, now)))
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

export async function deleteIdempotencyKeysBefore(db: DbOrTx, before: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before))
}

export async function notificationsFor(db: DbOrTx, orderNo: string) {
  return db
    .select()
    .from(paymentNotifications)
    .where(eq(paymentNotifications.orderNo, orderNo))
    .orderBy(asc(paymentNotifications.id))
}

/**
 * Runs `fn` only if no other process holds the advisory lock `key`; the lock is a transaction-level one on a
 * connection of its own, so it is released when `fn` ends or the process dies. Returns null when skipped.
 */
export async function withTryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T | null> {
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${key}) as ok`)
    if (!result.rows[0]?.ok) return null
    return fn()
  })
}
