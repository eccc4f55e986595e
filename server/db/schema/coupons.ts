import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { orders } from './orders.ts'
import { cascadeRef, identity, ref, timestamps, timestamptz } from './columns.ts'

export const couponKinds = ['amount', 'percent'] as const
export const couponScopes = ['all', 'category', 'courses'] as const

/** What operators define: how much off, on what, claimable when and how often. Coupons apply to course orders. */
export const couponTemplates = pgTable(
  'coupon_templates',
  {
    id: identity(),
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
    claimFrom: timestamptz(),
    claimTo: timestamptz(),
    /** A claimed coupon lasts `validDays` from claiming, and never past `validTo`. */
    validDays: integer(),
    validTo: timestamptz(),
    /** Null: no limit. */
    totalLimit: integer(),
    perMemberLimit: integer().notNull().default(1),
    claimedCount: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    createdBy: ref(() => members.id),
    ...timestamps(),
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
    id: identity(),
    templateId: ref(() => couponTemplates.id).notNull(),
    memberId: cascadeRef(() => members.id),
    state: text({ enum: memberCouponStates }).notNull().default('available'),
    orderId: ref(() => orders.id),
    claimedAt: timestamptz().notNull(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
  },
  (t) => [
    index('member_coupons_member_idx').on(t.memberId, t.state, t.expiresAt),
    index('member_coupons_template_member_idx').on(t.templateId, t.memberId),
    index('member_coupons_order_idx').on(t.orderId),
  ],
)
