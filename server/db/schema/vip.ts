import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { members } from './members.ts'

export const vipPlans = pgTable('vip_plans', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull(),
  days: integer().notNull(),
  priceFen: integer().notNull(),
  originalPriceFen: integer(),
  description: text().notNull().default(''),
  badge: text(),
  active: boolean().notNull().default(true),
  sort: integer().notNull().default(0),
})

/** A member's VIP: one row, extended by every VIP order from max(now, current expiry). */
export const vipMemberships = pgTable('vip_memberships', {
  memberId: integer()
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
})
