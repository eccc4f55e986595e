import { sql } from 'drizzle-orm'
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { paymentProviders } from './orders.ts'
import { identity, timestamptz } from './columns.ts'

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
