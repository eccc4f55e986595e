import { and, desc, eq, gt, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './database.ts'

// The query shapes repositories kept writing again, each written once. A repository passes its own tables in, so
// what it may touch is still what it imports (scripts/check-architecture.ts).

type Row<T extends PgTable> = T['$inferSelect']
type NewRow<T extends PgTable> = T['$inferInsert']

/**
 * The plain reads and writes of one row of `table` picked by `key` (its id, or another unique column such as an
 * order number): find it, lock it for the rest of the transaction, change some of its fields, or add a row.
 */
export function rowsBy<T extends PgTable, K extends AnyPgColumn>(table: T, key: K) {
  const rows: PgTable = table
  const at = (value: K['_']['data']) => eq(key, value)
  const first = (rows: unknown[]) => (rows[0] as Row<T> | undefined) ?? null
  return {
    /** The row, or null. */
    find: async (db: DbOrTx, value: K['_']['data']) => first(await db.select().from(rows).where(at(value))),
    /** The row locked `for update`, or null. */
    lock: async (db: DbOrTx, value: K['_']['data']) =>
      first(await db.select().from(rows).where(at(value)).for('update')),
    /** Sets these fields; the changed row, or null when there is none. */
    update: async (db: DbOrTx, value: K['_']['data'], set: Partial<NewRow<T>>) =>
      first(
        await db
          .update(rows)
          .set(set as PgUpdateSetSource<PgTable>)
          .where(at(value))
          .returning(),
      ),
    /** Adds a row; the row as stored. */
    insert: async (db: DbOrTx, values: NewRow<T>) =>
      first(
        await db
          .insert(rows)
          .values(values as PgInsertValue<PgTable>)
          .returning(),
      )!,
  }
}

/** Adds the row unless it would break a unique key (a second like, a second follow); whether it was added. */
export async function insertIfAbsent<T extends PgTable>(db: DbOrTx, table: T, values: NewRow<T>) {
  const rows = await db
    .insert(table as PgTable)
    .values(values as PgInsertValue<PgTable>)
    .onConflictDoNothing()
    .returning({ added: sql`1` })
  return rows.length > 0
}

/** Deletes the rows of `table` that match; how many there were. */
export async function deleteWhere(db: DbOrTx, table: PgTable, where: SQL | undefined) {
  const result = await db.delete(table).where(where)
  return result.rowCount ?? 0
}

/**
 * Deletes up to `limit` rows that match, and returns how many. `key` is the table's key column; rows another
 * transaction holds (another process's cleanup, a sign-in) are skipped, so a cleanup never waits on them.
 */
export async function deleteBatch(db: DbOrTx, key: AnyPgColumn, where: SQL | undefined, limit: number) {
  const batch = db.select({ key }).from(key.table).where(where).limit(limit).for('update', { skipLocked: true })
  return deleteWhere(db, key.table, inArray(key, batch))
}

/** Where a page of a newest-first list starts (ids below `before`; from the newest without it) and its size. */
export interface Page {
  before?: number
  limit: number
}

/** A page of a list shown newest first: `limit` rows with an id below the cursor `before` among those that match. */
export async function newestFirst<T extends PgTable & { id: AnyPgColumn }>(
  db: DbOrTx,
  table: T,
  page: Page,
  where: (SQL | undefined)[] = [],
) {
  const source: PgTable = table
  const rows = await db
    .select()
    .from(source)
    .where(and(...where, page.before === undefined ? undefined : lt(table.id, page.before)))
    .orderBy(desc(table.id))
    .limit(page.limit)
  return rows as Row<T>[]
}

/** `column = value`, or no condition when the filter was not given. */
export const eqIfGiven = <V>(column: AnyPgColumn, value: V | undefined) =>
  value === undefined ? undefined : eq(column, value)

/** `at` lies in the window from `start` to `end` (end excluded); a null end is open. */
export const withinWindow = (start: AnyPgColumn, end: AnyPgColumn, at: Date) =>
  and(or(isNull(start), lte(start, at)), or(isNull(end), gt(end, at)))
