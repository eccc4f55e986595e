import { sql } from 'drizzle-orm'
import { boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { identity, prices, sameName } from './columns.ts'

export const vipPlans = pgTable(
  'vip_plans',
  {
    id: identity(),
    name: text().notNull(),
    days: integer().notNull(),
    ...prices(),
    description: text().notNull().default(''),
    badge: text(),
    active: boolean().notNull().default(true),
    sort: integer().notNull().default(0),
  },
  // Two plans on sale never share a name (the VIP page would show two 月卡). Among those on sale only: a withdrawn
  // plan keeps its name on the orders that bought it, and a new plan may take the name again at another price.
  (t) => [
    uniqueIndex('vip_plans_active_name_key')
      .on(sameName(t.name))
      .where(sql`${t.active}`),
  ],
)
