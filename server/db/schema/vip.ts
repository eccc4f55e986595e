import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { identity } from './columns.ts'

export const vipPlans = pgTable('vip_plans', {
  id: identity(),
  name: text().notNull(),
  days: integer().notNull(),
  priceFen: integer().notNull(),
  originalPriceFen: integer(),
  description: text().notNull().default(''),
  badge: text(),
  active: boolean().notNull().default(true),
  sort: integer().notNull().default(0),
})
