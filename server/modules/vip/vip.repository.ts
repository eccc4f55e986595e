import { and, asc, desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { courses } from '#server/db/schema/catalogue.ts'
import { vipPlans } from '#server/db/schema/vip.ts'
import { courseCardColumns } from '#server/modules/catalogue/catalogue.repository.ts'

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

/** Published courses VIP members watch free, most studied first, as course card rows. */
export async function findVipFreeCourses(db: DbOrTx, limit: number) {
  return db.query.courses.findMany({
    columns: courseCardColumns,
    with: { teacher: { columns: { name: true } } },
    where: and(eq(courses.vipFree, true), eq(courses.status, 'published')),
    orderBy: [desc(courses.studentCount), asc(courses.id)],
    limit,
  })
}

/** Every plan, on sale or not, for operators. */
export async function findAllPlans(db: DbOrTx) {
  return db.select().from(vipPlans).orderBy(asc(vipPlans.sort), asc(vipPlans.id))
}

export async function insertPlan(db: DbOrTx, row: typeof vipPlans.$inferInsert) {
  const [inserted] = await db.insert(vipPlans).values(row).returning()
  return inserted!
}

export async function updatePlan(db: DbOrTx, id: number, set: Partial<typeof vipPlans.$inferInsert>) {
  const [row] = await db.update(vipPlans).set(set).where(eq(vipPlans.id, id)).returning()
  return row ?? null
}
