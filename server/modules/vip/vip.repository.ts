import { and, asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, tableList } from '#server/db/list.ts'
import { eqIfGiven, rowsBy } from '#server/db/rows.ts'
import { vipPlans } from '#server/db/schema/vip.ts'

/** The plans on sale, in display order. */
export async function findActivePlans(db: DbOrTx) {
  return db
    .select({
      id: vipPlans.id,
      name: vipPlans.name,
      days: vipPlans.days,
      priceFen: vipPlans.priceFen,
      originalPriceFen: vipPlans.originalPriceFen,
      description: vipPlans.description,
      badge: vipPlans.badge,
    })
    .from(vipPlans)
    .where(eq(vipPlans.active, true))
    .orderBy(asc(vipPlans.sort), asc(vipPlans.id))
}

export interface PlanFilter {
  active?: boolean
  text?: string
}

const planWhere = (f: PlanFilter) =>
  and(eqIfGiven(vipPlans.active, f.active), f.text ? containsText(vipPlans.name, f.text) : undefined)
const planSortable = { sort: vipPlans.sort, id: vipPlans.id, price_fen: vipPlans.priceFen }

/** One page of the plans, on sale or not, for operators (by display order: `sort` then id), and their total. */
export const planList = tableList(vipPlans, planWhere, planSortable)

export const { insert: insertPlan, find: findPlan, update: updatePlan } = rowsBy(vipPlans, vipPlans.id)
