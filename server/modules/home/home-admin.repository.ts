import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '#server/db/database.ts'
import { homeSectionItems, homeSections } from '#server/db/schema/home.ts'

// The home feed as operators edit it: every section of a feed (hidden ones too) and their items.

export type SectionRow = typeof homeSections.$inferSelect
export type ItemRow = typeof homeSectionItems.$inferSelect

/** The rows of `table` matching `where` in their feed order (`sort`, then id). */
async function inOrder<T extends typeof homeSections | typeof homeSectionItems>(db: DbOrTx, table: T, where: SQL) {
  const source: typeof homeSections | typeof homeSectionItems = table
  const rows = await db.select().from(source).where(where).orderBy(asc(source.sort), asc(source.id))
  return rows as T['$inferSelect'][]
}

/** One row of `table` by id, or null. */
async function byId<T extends typeof homeSections | typeof homeSectionItems>(db: DbOrTx, table: T, id: number) {
  const source: typeof homeSections | typeof homeSectionItems = table
  const [row] = await db.select().from(source).where(eq(source.id, id))
  return (row ?? null) as T['$inferSelect'] | null
}

export function findSections(db: DbOrTx, feed: 'v3' | 'v2') {
  return inOrder(db, homeSections, eq(homeSections.feed, feed))
}

export function findSection(db: DbOrTx, id: number): Promise<SectionRow | null> {
  return byId(db, homeSections, id)
}

/** Adds a row of `table` after the last of those whose `scope` column holds `value` (sort: the last one's + 10). */
async function insertLast<T extends typeof homeSections | typeof homeSectionItems>(
  db: DbOrTx,
  table: T,
  scope: AnyPgColumn,
  value: string | number,
  row: Omit<T['$inferInsert'], 'sort'>,
) {
  const target: PgTable = table
  const sort = sql<number>`(select coalesce(max(${table.sort}), 0) + 10 from ${table} where ${scope} = ${value})`
  const [created] = await db
    .insert(target)
    .values({ ...row, sort } as PgInsertValue<PgTable>)
    .returning()
  return created as T['$inferSelect']
}

/** Adds a section after the feed's last one. */
export function insertSection(db: DbOrTx, row: Omit<typeof homeSections.$inferInsert, 'sort'>) {
  return insertLast(db, homeSections, homeSections.feed, row.feed ?? 'v3', row)
}

export async function updateSection(db: DbOrTx, id: number, patch: Partial<SectionRow>) {
  const [row] = await db.update(homeSections).set(patch).where(eq(homeSections.id, id)).returning()
  return row ?? null
}

export async function deleteSection(db: DbOrTx, id: number) {
  const rows = await db.delete(homeSections).where(eq(homeSections.id, id)).returning({ feed: homeSections.feed })
  return rows[0] ?? null
}

/** Sets `sort` of each id to its position (10, 20, …) among rows matching `scope`. Returns how many changed. */
async function reorder(db: DbOrTx, table: typeof homeSections | typeof homeSectionItems, ids: number[]) {
  const cases = sql.join(
    ids.map((id, i) => sql`when ${id}::int then ${(i + 1) * 10}::int`),
    sql` `,
  )
  const rows = await db
    .update(table)
    .set({ sort: sql`case ${table.id} ${cases} end` })
    .where(inArray(table.id, ids))
    .returning({ id: table.id })
  return rows.length
}

export function reorderSections(db: DbOrTx, ids: number[]) {
  return reorder(db, homeSections, ids)
}

export function reorderItems(db: DbOrTx, ids: number[]) {
  return reorder(db, homeSectionItems, ids)
}

export function findItems(db: DbOrTx, sectionId: number) {
  return inOrder(db, homeSectionItems, eq(homeSectionItems.sectionId, sectionId))
}

export function findItem(db: DbOrTx, id: number): Promise<ItemRow | null> {
  return byId(db, homeSectionItems, id)
}

/** Adds an item after the section's last one. */
export function insertItem(db: DbOrTx, row: Omit<typeof homeSectionItems.$inferInsert, 'sort'>) {
  return insertLast(db, homeSectionItems, homeSectionItems.sectionId, row.sectionId, row)
}

export async function updateItem(db: DbOrTx, id: number, patch: Partial<ItemRow>) {
  const [row] = await db.update(homeSectionItems).set(patch).where(eq(homeSectionItems.id, id)).returning()
  return row ?? null
}

export async function deleteItem(db: DbOrTx, id: number) {
  const rows = await db
    .delete(homeSectionItems)
    .where(eq(homeSectionItems.id, id))
    .returning({ sectionId: homeSectionItems.sectionId })
  return rows[0] ?? null
}

/** The ids of a feed's sections (to check a reorder names each exactly once). */
export async function sectionIdsOf(db: DbOrTx, feed: 'v3' | 'v2') {
  const rows = await db.select({ id: homeSections.id }).from(homeSections).where(eq(homeSections.feed, feed))
  return rows.map((r) => r.id)
}

export async function itemIdsOf(db: DbOrTx, sectionId: number) {
  const rows = await db
    .select({ id: homeSectionItems.id })
    .from(homeSectionItems)
    .where(and(eq(homeSectionItems.sectionId, sectionId)))
  return rows.map((r) => r.id)
}
