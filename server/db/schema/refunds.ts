import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { orderItems, orders, paymentProviders } from './orders.ts'
import { identity, ref, timestamps, timestamptz } from './columns.ts'

export const refundKinds = ['member', 'automatic'] as const
export const refundStates = ['requested', 'rejected', 'processing', 'succeeded', 'failed'] as const
export type RefundState = (typeof refundStates)[number]

/**
 * Money going back: asked for by a member (approved or rejected by an operator) or started by the system for a
 * payment that cannot be kept (paid after close for something owned, or paid twice).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: identity(),
    /** out_refund_no / out_request_no at the provider. */
    refundNo: text().notNull(),
    orderId: ref(() => orders.id).notNull(),
    memberId: ref(() => members.id).notNull(),
    kind: text({ enum: refundKinds }).notNull(),
    provider: text({ enum: paymentProviders }),
    /** The provider transaction refunded: usually the order's, another one for a double payment. */
    providerTxnId: text(),
    /** The whole payment the refund is taken from (the provider needs it). */
    paymentFen: integer().notNull(),
    amountFen: integer().notNull(),
    reason: text().notNull(),
    state: text({ enum: refundStates }).notNull(),
    /** True when completing the refund also moves the order (refunding → refunded); false for a double payment. */
    movesOrder: boolean().notNull().default(true),
    providerRefundId: text(),
    decidedBy: ref(() => members.id),
    decidedAt: timestamptz(),
    decisionNote: text(),
    sentAt: timestamptz(),
    completedAt: timestamptz(),
    lastError: text(),
    /** The last operator who sent a failed refund again (same number), when, and how many times it was. */
    retriedBy: ref(() => members.id),
    retriedAt: timestamptz(),
    retries: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('refunds_refund_no_key').on(t.refundNo),
    // One open member request per order at a time.
    uniqueIndex('refunds_one_open_per_order')
      .on(t.orderId)
      .where(sql`${t.kind} = 'member' and ${t.state} in ('requested', 'processing')`),
    index('refunds_order_idx').on(t.orderId),
    // The daily reconciliation: a bill's payment that is not its order's transaction is known by its automatic refund.
    index('refunds_provider_txn_idx').on(t.providerTxnId),
    index('refunds_state_idx').on(t.state, t.createdAt),
    // The daily reconciliation: a provider's refunds of a day.
    index('refunds_completed_idx')
      .on(t.provider, t.completedAt)
      .where(sql`${t.state} = 'succeeded'`),
    // Zero only for orders paid with points and coupons alone: nothing goes through a provider.
    check(
      'refunds_amount_ck',
      sql`${t.amountFen} >= 0 and ${t.amountFen} <= ${t.paymentFen} and (${t.amountFen} > 0 or ${t.provider} is null)`,
    ),
  ],
)

/**
 * The lines of a per-course refund (issue 10 §1): which items of a bundle or favourites order a member's refund
 * covers, each with its share of what was paid (the paid amount allocated over the items' prices in whole fen, so
 * the shares of all lines add up to the amount paid). A refund without lines is a refund of the whole remainder.
 * Written with the request, never edited.
 */
export const refundLines = pgTable(
  'refund_lines',
  {
    id: identity(),
    refundId: ref(() => refunds.id, { onDelete: 'cascade' }).notNull(),
    orderId: ref(() => orders.id).notNull(),
    orderItemId: ref(() => orderItems.id).notNull(),
    courseId: integer(),
    title: text().notNull(),
    amountFen: integer().notNull(),
  },
  (t) => [
    uniqueIndex('refund_lines_refund_item_key').on(t.refundId, t.orderItemId),
    index('refund_lines_order_idx').on(t.orderId, t.orderItemId),
    check('refund_lines_amount_ck', sql`${t.amountFen} >= 0`),
  ],
)
