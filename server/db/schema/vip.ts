import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { identity, prices } from './columns.ts'

export const vipPlans = pgTable('vip_plans', {
  id: identity(),
  name: text().notNull(),
  days: integer().notNull(),
  ...prices(),
  description: text().notNull().default(''),
  badge: text(),
  active: boolean().notNull().default(true),
  sort: integer().notNull().default(0),
})
