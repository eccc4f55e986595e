import crypto from 'node:crypto'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { NotificationOutcome } from '#server/db/schema/payments.ts'
import { NotificationError, type ProviderName } from '#server/integrations/payments/payments.ts'
import type { StatementPart } from '#server/db/prepared.ts'
import {
  claimNotification,
  claimPart,
  logIfReplay,
  logNotification,
  markNotification,
  type NotificationRow,
  withTryLock as tryLock,
} from './payments.repository.ts'

// The payments module's door: the log of every payment and refund notification the providers send (and every
// provider query that found a payment), which is also what makes applying one idempotent. What a notification
// does to orders, access, coupons and points is the use cases' job (server/use-cases/confirm-payment.ts,
// confirm-refund.ts); docs/decisions/2026-11-22-orders-and-payments.md explains the rules.

/** What a notification endpoint answers the provider: accepted (stop sending) or not (send again). */
export interface NotificationAnswer {
  accepted: boolean
  outcome: NotificationOutcome
  detail?: string
}

/** A verified notification that must not change anything: thrown to roll its transaction back, then logged. */
export class RefusedNotification extends Error {
  readonly outcome: NotificationOutcome
  constructor(outcome: NotificationOutcome, detail: string) {
    super(detail)
    this.outcome = outcome
  }
}

/** A notification as the log records it. */
export interface NotificationRecord {
  provider: ProviderName
  kind: 'payment' | 'refund'
  notificationId: string
  orderNo: string | null
  raw: string
  createdAt: Date
}

/**
 * Records a verified notification as applied, inside the transaction that applies it. Null when the same provider
 * notification was applied before (a concurrent one is waited for): then nothing may change.
 */
export function claimNotificationOnce(tx: DbOrTx, n: NotificationRecord): Promise<number | null> {
  return claimNotification(tx, n)
}

/**
 * Logs a replay of a notification already applied (committed), in one statement; false when it was not applied
 * (or not yet visible) and nothing was written.
 */
export function logReplayIfApplied(db: DbOrTx, n: NotificationRecord): Promise<boolean> {
  return logIfReplay(db, n)
}

/** Logs a notification that changed nothing: refused (with the outcome and why) or a replay. */
export function logUnapplied(
  db: DbOrTx,
  n: NotificationRecord & { verified: boolean; outcome: NotificationOutcome; detail: string | null },
): Promise<void> {
  return logNotification(db, n satisfies NotificationRow)
}

/** A replay of a notification applied before, logged for the audit; failing to log it changes no answer. */
export function logReplay(db: DbOrTx, n: NotificationRecord, detail: string): Promise<void> {
  return logUnapplied(db, { ...n, verified: true, outcome: 'duplicate', detail }).catch(() => {})
}

/**
 * A notification as its provider's adapter verified it (`verify`: signature, timestamp, decryption), or, when it
 * could not be verified, the answer for the provider: the notification is logged with an id of its own (it has no
 * trustworthy one) and changes nothing.
 */
export async function verifyNotification<T>(
  db: DbOrTx,
  n: Omit<NotificationRecord, 'notificationId' | 'orderNo'>,
  verify: () => T | Promise<T>,
): Promise<{ verified: T; refused?: undefined } | { refused: NotificationAnswer }> {
  try {
    return { verified: await verify() }
  } catch (err) {
    if (!(err instanceof NotificationError)) throw err
    const unverified = { ...n, notificationId: `unverified:${crypto.randomUUID()}`, orderNo: null, verified: false }
    return { refused: await refuseNotification(db, unverified, err) }
  }
}

/**
 * Logs a notification that changed nothing because it was refused (it could not be verified, or it does not fit
 * its order or refund), with the outcome and why, and returns the answer that tells the provider so.
 */
export async function refuseNotification(
  db: DbOrTx,
  n: NotificationRecord & { verified: boolean },
  why: { outcome: NotificationOutcome; message: string },
): Promise<NotificationAnswer> {
  await logUnapplied(db, { ...n, outcome: why.outcome, detail: why.message })
  return { accepted: false, outcome: why.outcome, detail: why.message }
}

/** An applied notification turned out to change nothing (a payment already known, a refund still processing). */
export function markNotificationOutcome(tx: DbOrTx, id: number, outcome: NotificationOutcome, detail: string | null) {
  return markNotification(tx, id, outcome, detail)
}

/**
 * Runs `fn` only if no other process holds the advisory lock `key` (released when `fn` ends or the process dies);
 * null when skipped. The payment sweeps take it so that one process runs them at a time.
 */
export function withTryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T | null> {
  return tryLock(db, key, fn)
}

/** The provider's notify URL for payments (`wechat`, `alipay`) and refunds (`wechat/refund`). */
export function notifyUrl(publicUrl: string, path: string) {
  return `${publicUrl}/api/pay/notify/${path}`
}

/**
 * `claimNotificationOnce` as this module's part of the payment fast path's single statement (orders
 * `settlePendingOrder`): a notification applied before makes the whole statement fail (`isAppliedClaimConflict`).
 */
export function claimInSettlement(n: NotificationRecord): StatementPart {
  return claimPart(n)
}

/**
 * The unique index on applied notifications refused a claim (PostgreSQL unique_violation on it); drizzle may wrap
 * the driver's error, keeping it as `cause`.
 */
export function isAppliedClaimConflict(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 3; e = (e as { cause?: unknown }).cause, i++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505' && constraint === 'payment_notifications_applied_key') return true
  }
  return false
}
