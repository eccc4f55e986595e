import { eq, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { executePrepared, type StatementPart } from '#server/db/prepared.ts'
import { paymentNotifications, type NotificationOutcome } from '#server/db/schema/payments.ts'

export type NotificationRow = typeof paymentNotifications.$inferInsert

const RAW_MAX = 16_000

/** The body as stored with a notification (capped in length). */
function storedRaw(raw: string) {
  return raw.slice(0, RAW_MAX)
}

/**
 * Records an applied notification (one prepared statement: it is on the payment path). Returns null when this
 * provider notification was applied before (the unique index on applied rows; a concurrent one still in flight is
 * waited for): the caller then changes nothing.
 */
export async function claimNotification(db: DbOrTx, row: Omit<NotificationRow, 'outcome' | 'verified'>) {
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_claim_notification',
    sql`
    insert into ${paymentNotifications} (provider, kind, notification_id, order_no, raw, verified, outcome, detail, created_at)
    values (${row.provider}, ${row.kind}, ${row.notificationId}, ${row.orderNo ?? null}, ${storedRaw(row.raw)}, true, 'applied',
      ${row.detail ?? null}, ${row.createdAt.toISOString()}::timestamptz)
    on conflict (provider, kind, notification_id) where outcome = 'applied' do nothing
    returning id`,
  )
  return rows[0]?.id ?? null
}

/**
 * `claimNotification` as a part of the payment fast path's statement (orders.repository.ts `settlePendingOrder`,
 * which provides `paid_order`): the notification recorded as applied when the order was paid. A notification
 * applied before fails the whole statement on the unique index (nothing commits).
 */
export function claimPart(row: Omit<NotificationRow, 'outcome' | 'verified' | 'detail'>): StatementPart {
  return {
    name: 'claim',
    ctes: sql`
    claim_row as (
      insert into ${paymentNotifications} (provider, kind, notification_id, order_no, raw, verified, outcome, created_at)
      select ${row.provider}, ${row.kind}, ${row.notificationId}, ${row.orderNo ?? null}, ${storedRaw(row.raw)}, true, 'applied',
        ${row.createdAt.toISOString()}::timestamptz
      from paid_order
      returning id
    )`,
    summary: sql`'{}'::jsonb`,
  }
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

/** Per database handle, the end of the last round queued by withTryLock. */
const lockRounds = new WeakMap<Db, Promise<unknown>>()

/**
 * Runs `fn` only if no other process holds the advisory lock `key`; the lock is a transaction-level one on a
 * connection of its own, so it is released when `fn` ends or the process dies. Returns null when skipped.
 *
 * The lock's connection stays taken from the pool while `fn` does its work on others. So this process runs such
 * rounds one at a time: rounds started together (the sweeps at start-up) would otherwise take every connection of
 * a small pool (DATABASE_POOL_SIZE 2 or 3), each waiting for one more, and never end.
 */
export function withTryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T | null> {
  const locked = () =>
    db.transaction(async (tx) => {
      const result = await tx.execute<{ ok: boolean }>(sql`select pg_try_advisory_xact_lock(${key}) as ok`)
      if (!result.rows[0]?.ok) return null
      return fn()
    })
  const round = (lockRounds.get(db) ?? Promise.resolve()).then(locked)
  lockRounds.set(
    db,
    round.catch(() => {}),
  )
  return round
}
