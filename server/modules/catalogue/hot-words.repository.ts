import { asc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { hotWords } from '#server/db/schema/catalogue.ts'

// Hot search words as operators keep them (the learners' read is listHotWords in catalogue.repository.ts).

export async function allHotWords(db: DbOrTx) {
  return db.select().from(hotWords).orderBy(asc(hotWords.sort), asc(hotWords.id))
}

/** Adds a word after the last one. */
export async function insertHotWord(db: DbOrTx, word: string) {
  const [row] = await db
    .insert(hotWords)
    .values({ word, sort: sql`(select coalesce(max(${hotWords.sort}), 0) + 10 from ${hotWords})` })
    .returning()
  return row!
}

export async function updateHotWord(db: DbOrTx, id: number, word: string) {
  const [row] = await db.update(hotWords).set({ word }).where(eq(hotWords.id, id)).returning()
  return row ?? null
}

export async function deleteHotWord(db: DbOrTx, id: number) {
  const rows = await db.delete(hotWords).where(eq(hotWords.id, id)).returning({ id: hotWords.id })
  return rows.length > 0
}

/** Sets each word's sort to its position (10, 20, …). */
export async function reorderHotWords(db: DbOrTx, ids: number[]) {
  const cases = sql.join(
    ids.map((id, i) => sql`when ${id}::int then ${(i + 1) * 10}::int`),
    sql` `,
  )
  await db
    .update(hotWords)
    .set({ sort: sql`case ${hotWords.id} ${cases} end` })
    .where(inArray(hotWords.id, ids))
}
