import { asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { rowsBy } from '#server/db/rows.ts'
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

/** Every plan, on sale or not, for operators. */
export async function findAllPlans(db: DbOrTx) {
  return db.select().from(vipPlans).orderBy(asc(vipPlans.sort), asc(vipPlans.id))
}

export const { insert: insertPlan, find: findPlan, update: updatePlan } = rowsBy(vipPlans, vipPlans.id)
