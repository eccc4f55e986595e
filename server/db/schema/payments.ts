import { sql } from 'drizzle-orm'
import { boolean, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { paymentProviders } from './orders.ts'
import { identity, ownedBy, timestamps, timestamptz } from './columns.ts'

export const notificationOutcomes = [
  /** Moved an order (or a refund) on. Unique per provider notification id: a replay finds it and changes nothing. */
  'applied',
  /** A replay of an applied notification, or a payment the order already knew about. */
  'duplicate',
  'bad_signature',
  'bad_timestamp',
  'bad_body',
  'unknown_order',
  'amount_mismatch',
  'merchant_mismatch',
  'not_success',
] as const
export type NotificationOutcome = (typeof notificationOutcomes)[number]

/** Every payment or refund notification received (and every provider query that paid an order): audit and idempotency. */
export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    id: identity(),
    provider: text({ enum: paymentProviders }).notNull(),
    kind: text({ enum: ['payment', 'refund'] }).notNull(),
    /** The provider's notification id (WeChat `id`, Alipay `notify_id`), or "query:<txn>" for a reconciliation. */
    notificationId: text().notNull(),
    orderNo: text(),
    /** The body as received (WeChat's is still encrypted; Alipay's is a form). Capped in length. */
    raw: text().notNull(),
    verified: boolean().notNull(),
    outcome: text({ enum: notificationOutcomes }).notNull(),
    detail: text(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('payment_notifications_applied_key')
      .on(t.provider, t.kind, t.notificationId)
      .where(sql`${t.outcome} = 'applied'`),
    index('payment_notifications_order_idx').on(t.orderNo),
  ],
)

/**
 * One provider's trade bill of one Beijing day compared with our payments and refunds (the daily reconciliation,
 * server/use-cases/reconcile-bills.ts): done, or failed (the bill was not available yet; tried again later).
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: identity(),
    provider: text({ enum: paymentProviders }).notNull(),
    billDate: date({ mode: 'string' }).notNull(),
    state: text({ enum: ['done', 'failed'] }).notNull(),
    /** Lines of the bill (payments, refunds) and how many differences they left. */
    billPayments: integer().notNull().default(0),
    billRefunds: integer().notNull().default(0),
    differences: integer().notNull().default(0),
    /** Why the last attempt failed. */
    error: text(),
    attempts: integer().notNull().default(1),
    ...timestamps(),
  },
  (t) => [uniqueIndex('reconciliation_runs_day_key').on(t.provider, t.billDate)],
)

export const reconciliationKinds = [
  /** In the provider's bill, not in ours (a payment of an unknown order, a refund we do not know). */
  'missing_ours',
  /** Ours, not in the provider's bill (nor the day before's). */
  'missing_theirs',
  'amount_differs',
  /** Both know it, in different states (paid there, pending or closed here; refunded there, not here). */
  'state_differs',
] as const
export type ReconciliationKind = (typeof reconciliationKinds)[number]

/** A difference a reconciliation found, for staff to look at. A run of the same day again replaces its rows. */
export const reconciliationDifferences = pgTable(
  'reconciliation_differences',
  {
    ...ownedBy('runId', () => reconciliationRuns.id),
    provider: text({ enum: paymentProviders }).notNull(),
    billDate: date({ mode: 'string' }).notNull(),
    kind: text({ enum: reconciliationKinds }).notNull(),
    /** A payment or a refund. */
    subject: text({ enum: ['payment', 'refund'] }).notNull(),
    orderNo: text().notNull(),
    refundNo: text(),
    transactionId: text(),
    ourFen: integer(),
    theirFen: integer(),
    ourState: text(),
    theirState: text(),
    detail: text().notNull(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    index('reconciliation_differences_run_idx').on(t.runId),
    index('reconciliation_differences_day_idx').on(t.billDate, t.id),
  ],
)
