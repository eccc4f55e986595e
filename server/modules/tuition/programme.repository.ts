import { asc, desc, eq, max } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { insertId, rowsBy, updateWhileNull } from '#server/db/rows.ts'
import { contractTemplates, contractTemplateVersions, tuitionPlans } from '#server/db/schema/tuition.ts'

// Tuition plans and contract templates: what staff keep and offers point at.

export type PlanRow = typeof tuitionPlans.$inferSelect
export type VersionRow = typeof contractTemplateVersions.$inferSelect

export const { find: findPlan } = rowsBy(tuitionPlans, tuitionPlans.id)
export const { find: findVersion } = rowsBy(contractTemplateVersions, contractTemplateVersions.id)

export function insertPlan(db: DbOrTx, row: typeof tuitionPlans.$inferInsert) {
  return insertId(db, tuitionPlans, row)
}

/** Plans, newest first (the course's only, when given). */
export function listPlans(db: DbOrTx, courseId?: number) {
  return db
    .select()
    .from(tuitionPlans)
    .where(courseId === undefined ? undefined : eq(tuitionPlans.courseId, courseId))
    .orderBy(desc(tuitionPlans.id))
}

export function insertTemplate(db: DbOrTx, name: string, at: Date) {
  return insertId(db, contractTemplates, { name, createdAt: at })
}

/** A new draft version of a template, numbered after its latest (the unique index refuses two at once). */
export async function insertVersion(
  db: DbOrTx,
  v: { templateId: number; title: string; body: string; asksId: boolean; at: Date },
) {
  const [latest] = await db
    .select({ n: max(contractTemplateVersions.version) })
    .from(contractTemplateVersions)
    .where(eq(contractTemplateVersions.templateId, v.templateId))
  const [row] = await db
    .insert(contractTemplateVersions)
    .values({
      templateId: v.templateId,
      version: (latest?.n ?? 0) + 1,
      title: v.title,
      body: v.body,
      asksId: v.asksId,
      createdAt: v.at,
    })
    .returning()
  return row!
}

/** Edits a draft; a published version is never changed (null; a database trigger refuses it too). */
export function updateDraft(db: DbOrTx, id: number, set: { title: string; body: string; asksId: boolean }) {
  return updateWhileNull(db, contractTemplateVersions, id, contractTemplateVersions.publishedAt, set)
}

export function publishVersion(db: DbOrTx, id: number, at: Date) {
  return updateWhileNull(db, contractTemplateVersions, id, contractTemplateVersions.publishedAt, { publishedAt: at })
}

/** Every template with its versions, newest template first, versions in order. */
export async function listTemplates(db: DbOrTx) {
  const [templates, versions] = await Promise.all([
    db.select().from(contractTemplates).orderBy(desc(contractTemplates.id)),
    db.select().from(contractTemplateVersions).orderBy(asc(contractTemplateVersions.version)),
  ])
  return templates.map((t) => ({ ...t, versions: versions.filter((v) => v.templateId === t.id) }))
}
