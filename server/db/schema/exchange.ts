import { sql } from 'drizzle-orm'
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { Platforms } from '#shared/exchange-platforms.ts'
import { courses } from './catalogue.ts'
import { members } from './members.ts'
import { cascadeRef, identity, ref, timestamps, timestamptz } from './columns.ts'

// Platform orders exchanged for courses (issue 14 §2), owned by server/modules/exchange.

/** A platform's SKU as it names it: its id and the product's name. */
const platformSku = () => ({
  skuId: text().notNull(),
  productName: text().notNull(),
})

/** What one platform SKU grants when its order line is exchanged: one course, or VIP days. Operators keep them. */
export const exchangeSkus = pgTable(
  'exchange_skus',
  {
    id: identity(),
    platform: text({ enum: Platforms }).notNull(),
    ...platformSku(),
    courseId: ref(() => courses.id, { onDelete: 'restrict' }),
    vipDays: integer(),
    note: text().notNull().default(''),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('exchange_skus_platform_sku_key').on(t.platform, t.skuId),
    check('exchange_skus_one_grant', sql`(${t.courseId} is null) <> (${t.vipDays} is null)`),
  ],
)

/**
 * One exchanged order line and what it granted. The unique key (platform, order, line) is what makes an order
 * exchangeable once, by anyone, whatever runs at the same moment. Revoked rows stay, with why.
 */
export const exchangeRecords = pgTable(
  'exchange_records',
  {
    id: identity(),
    platform: text({ enum: Platforms }).notNull(),
    orderId: text().notNull(),
    /** The order line (a Douyin voucher's certificate_id, a shop order's SKU order id). */
    lineId: text().notNull(),
    ...platformSku(),
    memberId: cascadeRef(() => members.id),
    courseId: ref(() => courses.id, { onDelete: 'set null' }),
    vipDays: integer(),
    /** What the buyer paid the platform for this line, in fen; null when the platform did not say. */
    amountFen: integer(),
    /** What the platform answered when the line was redeemed there (a Douyin verify_id), for a later cancel. */
    redeemRef: text(),
    status: text({ enum: ['granted', 'revoked'] }).notNull(),
    grantedAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
    revokeReason: text(),
  },
  (t) => [
    uniqueIndex('exchange_records_line_key').on(t.platform, t.orderId, t.lineId),
    index('exchange_records_member_idx').on(t.memberId, t.id),
    // The staff's sales figures read a period's exchanges by when they were granted.
    index('exchange_records_granted_idx').on(t.grantedAt),
  ],
)

/** An order line as a platform reported it (push or sync): what the NotExchange lists offer. */
export interface PlatformOrderLine {
  line_id: string
  sku_id: string
  product_name: string
}

/**
 * Orders the platforms told us about (their push, or the periodic sync), with the buyer's phone where the platform
 * gives it: the signed-in member's unexchanged orders are those bought with their phone.
 */
export const platformOrders = pgTable(
  'platform_orders',
  {
    id: identity(),
    platform: text({ enum: Platforms }).notNull(),
    orderId: text().notNull(),
    buyerPhone: text(),
    status: text({ enum: ['paid', 'refunded', 'cancelled'] }).notNull(),
    lines: jsonb().$type<PlatformOrderLine[]>().notNull(),
    paidAt: timestamptz(),
    updatedAt: timestamptz().notNull(),
  },
  (t) => [
    uniqueIndex('platform_orders_key').on(t.platform, t.orderId),
    index('platform_orders_phone_idx').on(t.buyerPhone, t.platform),
  ],
)

/** Push messages already handled, by the platform's message id: a replayed push changes nothing. */
export const platformPushes = pgTable(
  'platform_pushes',
  {
    platform: text({ enum: Platforms }).notNull(),
    msgId: text().notNull(),
    receivedAt: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.platform, t.msgId] })],
)
