import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { courses } from './catalogue.ts'
import { memberOwned, members } from './members.ts'
import { vipPlans } from './vip.ts'
import { identity, ownedBy, ref, stateLog, timestamptz } from './columns.ts'

// Orders and payments (issue 4). The rules live in server/modules/orders and the workflows in server/use-cases; the
// reasons for the shapes below are in docs/decisions/2026-11-22-orders-and-payments.md.

export const orderKinds = ['course', 'vip', 'amount', 'bundle', 'favourites', 'tuition'] as const
export type OrderKind = (typeof orderKinds)[number]

/** pending → paid → refunding → refunded | partially_refunded; pending → closed (and closed → paid for a late payment). */
export const orderStates = ['pending', 'paid', 'refunding', 'refunded', 'partially_refunded', 'closed'] as const
export type OrderState = (typeof orderStates)[number]

export const payMethods = ['wechat_jsapi', 'wechat_h5', 'wechat_native', 'alipay_wap', 'points', 'free'] as const
export type PayMethod = (typeof payMethods)[number]

export const paymentProviders = ['wechat', 'alipay'] as const
export type PaymentProviderName = (typeof paymentProviders)[number]

export const orders = pgTable(
  'orders',
  {
    id: identity(),
    /** What members, staff and the providers see (out_trade_no): ZX + Beijing date + 10 random digits. */
    orderNo: text().notNull(),
    memberId: ref(() => members.id).notNull(),
    kind: text({ enum: orderKinds }).notNull(),
    /**
     * What is being bought, as one comparable key ("course:1001", "vip:2", "amount:1990:…"): a member has at most
     * one pending order per target, so two taps on "buy" give one order.
     */
    target: text().notNull(),
    title: text().notNull(),
    /** What the member pays: original − discount − points value. Integer fen. */
    amountFen: integer().notNull(),
    originalFen: integer().notNull(),
    discountFen: integer().notNull().default(0),
    pointsUsed: integer().notNull().default(0),
    /** The member's coupon (member_coupons.id) the discount came from. */
    couponId: integer(),
    state: text({ enum: orderStates }).notNull().default('pending'),
    payMethod: text({ enum: payMethods }).notNull(),
    /** The provider that took the money, and its transaction id (WeChat transaction_id, Alipay trade_no). */
    provider: text({ enum: paymentProviders }),
    providerTxnId: text(),
    refundedFen: integer().notNull().default(0),
    /** Promotion source at the time of the order (spec: sp), for the promotion programme. */
    sp: text(),
    createdAt: timestamptz().notNull(),
    expiresAt: timestamptz().notNull(),
    paidAt: timestamptz(),
    closedAt: timestamptz(),
    updatedAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    uniqueIndex('orders_one_pending_per_target')
      .on(t.memberId, t.kind, t.target)
      .where(sql`${t.state} = 'pending'`),
    index('orders_member_idx').on(t.memberId, t.id),
    index('orders_pending_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} = 'pending'`),
    index('orders_state_idx').on(t.state, t.createdAt),
    // The daily reconciliation: a provider's payments of a day.
    index('orders_paid_idx')
      .on(t.provider, t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    check(
      'orders_amounts_ck',
      sql`${t.amountFen} >= 0 and ${t.originalFen} >= 0 and ${t.discountFen} >= 0 and ${t.pointsUsed} >= 0`,
    ),
    check('orders_refunded_ck', sql`${t.refundedFen} >= 0 and ${t.refundedFen} <= ${t.amountFen}`),
  ],
)

/** The things an order buys, with the price each was sold at. */
export const orderItems = pgTable(
  'order_items',
  {
    ...ownedBy('orderId', () => orders.id),
    courseId: ref(() => courses.id),
    vipPlanId: ref(() => vipPlans.id),
    /** VIP: the days the plan adds, frozen at order time (the plan may change later). */
    vipDays: integer(),
    title: text().notNull(),
    priceFen: integer().notNull(),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_course_idx').on(t.courseId)],
)

/** Append-only: every state change of every order, who or what made it and why. */
export const orderEvents = stateLog('order_events', 'orderId', () => orders.id, orderStates)

/** `Idempotency-Key` answers: the first answer to a key is the answer to every repeat of it. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ...memberOwned(),
    key: text().notNull(),
    /** Method, path and body hashed: the same key on another request is refused. */
    requestHash: text().notNull(),
    /** Null while the first request is still running. */
    response: jsonb(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_member_key').on(t.memberId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
)
