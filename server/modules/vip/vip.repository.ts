import { asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
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

export async function insertPlan(db: DbOrTx, row: typeof vipPlans.$inferInsert) {
  const [inserted] = await db.insert(vipPlans).values(row).returning()
  return inserted!
}

export async function findPlan(db: DbOrTx, id: number) {
  const [row] = await db.select().from(vipPlans).where(eq(vipPlans.id, id))
  return row ?? null
}

export async function updatePlan(db: DbOrTx, id: number, set: Partial<typeof vipPlans.$inferInsert>) {
  const [row] = await db.update(vipPlans).set(set).where(eq(vipPlans.id, id)).returning()
  return row ?? null
}
