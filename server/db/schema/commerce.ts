import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { courses, vipPlans } from './catalogue.ts'
import { members } from './members.ts'

// Orders and payments (issue 4). The rules live in server/modules/orders and server/modules/payments; the reasons
// for the shapes below are in docs/decisions/2026-11-22-orders-and-payments.md.

export const orderKinds = ['course', 'vip', 'amount', 'bundle', 'favourites'] as const
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
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** What members, staff and the providers see (out_trade_no): ZX + Beijing date + 10 random digits. */
    orderNo: text().notNull(),
    memberId: integer()
      .notNull()
      .references(() => members.id),
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
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    paidAt: timestamp({ withTimezone: true }),
    closedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
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
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    courseId: integer().references(() => courses.id),
    vipPlanId: integer().references(() => vipPlans.id),
    /** VIP: the days the plan adds, frozen at order time (the plan may change later). */
    vipDays: integer(),
    title: text().notNull(),
    priceFen: integer().notNull(),
  },
  (t) => [index('order_items_order_idx').on(t.orderId), index('order_items_course_idx').on(t.courseId)],
)

/** Append-only: every state change of every order, who or what made it and why. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromState: text({ enum: orderStates }),
    toState: text({ enum: orderStates }).notNull(),
    reason: text().notNull(),
    /** "member:100001", "admin:100002", "provider:wechat", "system". */
    actor: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
)

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
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
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
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('payment_notifications_applied_key')
      .on(t.provider, t.kind, t.notificationId)
      .where(sql`${t.outcome} = 'applied'`),
    index('payment_notifications_order_idx').on(t.orderNo),
  ],
)

/** `Idempotency-Key` answers: the first answer to a key is the answer to every repeat of it. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    /** Method, path and body hashed: the same key on another request is refused. */
    requestHash: text().notNull(),
    /** Null while the first request is still running. */
    response: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_member_key').on(t.memberId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
)

/** A member's VIP: one row, extended by every VIP order from max(now, current expiry). */
export const vipMemberships = pgTable('vip_memberships', {
  memberId: integer()
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
})

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
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** out_refund_no / out_request_no at the provider. */
    refundNo: text().notNull(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    memberId: integer()
      .notNull()
      .references(() => members.id),
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
    decidedBy: integer().references(() => members.id),
    decidedAt: timestamp({ withTimezone: true }),
    decisionNote: text(),
    sentAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** The last operator who sent a failed refund again (same number), when, and how many times it was. */
    retriedBy: integer().references(() => members.id),
    retriedAt: timestamp({ withTimezone: true }),
    retries: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('refunds_refund_no_key').on(t.refundNo),
    // One open member request per order at a time.
    uniqueIndex('refunds_one_open_per_order')
      .on(t.orderId)
      .where(sql`${t.kind} = 'member' and ${t.state} in ('requested', 'processing')`),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_state_idx').on(t.state, t.createdAt),
    // Zero only for orders paid with points and coupons alone: nothing goes through a provider.
    check(
      'refunds_amount_ck',
      sql`${t.amountFen} >= 0 and ${t.amountFen} <= ${t.paymentFen} and (${t.amountFen} > 0 or ${t.provider} is null)`,
    ),
  ],
)

export const couponKinds = ['amount', 'percent'] as const
export const couponScopes = ['all', 'category', 'courses'] as const

/** What operators define: how much off, on what, claimable when and how often. Coupons apply to course orders. */
export const couponTemplates = pgTable(
  'coupon_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    kind: text({ enum: couponKinds }).notNull(),
    /** amount: fen off. */
    amountOffFen: integer(),
    /** percent: 1–99 percent off, at most `maxOffFen` when set. */
    percentOff: integer(),
    maxOffFen: integer(),
    minSpendFen: integer().notNull().default(0),
    scope: text({ enum: couponScopes }).notNull().default('all'),
    /** Category ids (scope category, sub-categories included) or course ids (scope courses). */
    scopeIds: integer()
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    /** When it can be claimed; null: no bound. */
    claimFrom: timestamp({ withTimezone: true }),
    claimTo: timestamp({ withTimezone: true }),
    /** A claimed coupon lasts `validDays` from claiming, and never past `validTo`. */
    validDays: integer(),
    validTo: timestamp({ withTimezone: true }),
    /** Null: no limit. */
    totalLimit: integer(),
    perMemberLimit: integer().notNull().default(1),
    claimedCount: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    createdBy: integer().references(() => members.id),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    check(
      'coupon_templates_value_ck',
      sql`(${t.kind} = 'amount' and ${t.amountOffFen} > 0) or (${t.kind} = 'percent' and ${t.percentOff} between 1 and 99)`,
    ),
    check('coupon_templates_limit_ck', sql`${t.totalLimit} is null or ${t.claimedCount} <= ${t.totalLimit}`),
    check('coupon_templates_validity_ck', sql`${t.validDays} is not null or ${t.validTo} is not null`),
  ],
)

export const memberCouponStates = ['available', 'reserved', 'used'] as const

/** A coupon a member claimed: reserved by one pending order at a time, used when it is paid, back when refunded. */
export const memberCoupons = pgTable(
  'member_coupons',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    templateId: integer()
      .notNull()
      .references(() => couponTemplates.id),
    memberId: integer()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    state: text({ enum: memberCouponStates }).notNull().default('available'),
    orderId: integer().references(() => orders.id),
    claimedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('member_coupons_member_idx').on(t.memberId, t.state, t.expiresAt),
    index('member_coupons_template_member_idx').on(t.templateId, t.memberId),
    index('member_coupons_order_idx').on(t.orderId),
  ],
)

/** The cached balance of the points ledger: always the sum of the member's entries, never negative. */
export const pointBalances = pgTable(
  'point_balances',
  {
    memberId: integer()
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    balance: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [check('point_balances_not_negative_ck', sql`${t.balance} >= 0`)],
)

export const pointReasons = [
  'order_earned',
  'order_earned_reversed',
  'order_spent',
  'order_spent_returned',
  'admin_adjust',
] as const
export type PointReason = (typeof pointReasons)[number]

/** Append-only points ledger: each change with the balance after it, why, and who. */
export const pointEntries = pgTable(
  'point_entries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    delta: integer().notNull(),
    balanceAfter: integer().notNull(),
    reason: text({ enum: pointReasons }).notNull(),
    orderId: integer().references(() => orders.id),
    /** "system", "admin:100002", "member:100001". */
    actor: text().notNull(),
    note: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('point_entries_member_idx').on(t.memberId, t.id),
    index('point_entries_order_idx').on(t.orderId),
    check('point_entries_delta_ck', sql`${t.delta} <> 0 and ${t.balanceAfter} >= 0`),
  ],
)

/**
 * A set of courses sold together at one price (/foryou/{id}). A member who already owns some of them pays the
 * bundle price in proportion to the list prices of the rest (server/modules/orders/bundles.ts).
 */
export const bundles = pgTable(
  'bundles',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    title: text().notNull(),
    subtitle: text().notNull().default(''),
    coverUrl: text(),
    /** Plain text paragraphs separated by blank lines; rendered escaped. */
    intro: text().notNull().default(''),
    priceFen: integer().notNull(),
    active: boolean().notNull().default(true),
    sort: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('bundles_price_ck', sql`${t.priceFen} > 0`)],
)

export const bundleCourses = pgTable(
  'bundle_courses',
  {
    bundleId: integer()
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bundleId, t.courseId] }), index('bundle_courses_course_idx').on(t.courseId)],
)
