import {
  and,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  type InferColumnsDataTypes,
  inArray,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { AnyPgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './database.ts'

// The query shapes repositories kept writing again, each written once. A repository passes its own tables in, so
// what it may touch is still what it imports (scripts/check-architecture.ts).
//
// Inside, a table is used as a plain PgTable: drizzle's builders do not resolve their types over a generic table,
// so the row types are stated here from the table passed in.

type Row<T extends PgTable> = T['$inferSelect']
type NewRow<T extends PgTable> = T['$inferInsert']

const firstOrNull = <T extends PgTable>(rows: unknown[]) => (rows[0] as Row<T> | undefined) ?? null

/** Sets these fields of the rows that match; the first changed row, or null when none matched. */
async function updateReturning<T extends PgTable>(
  db: DbOrTx,
  table: T,
  where: SQL | undefined,
  set: Partial<NewRow<T>>,
) {
  const source: PgTable = table
  const rows = await db
    .update(source)
    .set(set as PgUpdateSetSource<PgTable>)
    .where(where)
    .returning()
  return firstOrNull<T>(rows)
}

/**
 * The plain reads and writes of one row of `table` picked by `key` (its id, or another unique column such as an
 * order number): find it, lock it for the rest of the transaction, change some of its fields, or add a row.
 */
export function rowsBy<T extends PgTable, K extends AnyPgColumn>(table: T, key: K) {
  const source: PgTable = table
  const at = (value: K['_']['data']) => eq(key, value)
  return {
    /** The row, or null. */
    find: async (db: DbOrTx, value: K['_']['data']) => firstOrNull<T>(await db.select().from(source).where(at(value))),
    /** The row locked `for update`, or null. */
    lock: async (db: DbOrTx, value: K['_']['data']) =>
      firstOrNull<T>(await db.select().from(source).where(at(value)).for('update')),
    /** Sets these fields; the changed row, or null when there is none. */
    update: async (db: DbOrTx, value: K['_']['data'], set: Partial<NewRow<T>>) =>
      updateReturning(db, table, at(value), set),
    /** Adds a row; the row as stored. */
    insert: async (db: DbOrTx, values: NewRow<T>) => {
      const rows = await db
        .insert(source)
        .values(values as PgInsertValue<PgTable>)
        .returning()
      return firstOrNull<T>(rows)!
    },
  }
}

/** These columns of the rows whose `column` is one of `values` (in no order); no query at all for no values. */
export async function selectWhereIn<F extends Record<string, AnyPgColumn>>(
  db: DbOrTx,
  column: AnyPgColumn,
  values: readonly (number | string)[],
  fields: F,
) {
  if (values.length === 0) return []
  const rows = await db
    .select(fields)
    .from(column.table)
    .where(inArray(column, [...values]))
  return rows as InferColumnsDataTypes<F>[]
}

/**
 * The rows of `table` whose `column` is one of `values` (in no order), read 1000 values at a time so a long list
 * (a day's bill) stays within a statement's parameters.
 */
export async function rowsWhereIn<T extends PgTable>(
  db: DbOrTx,
  table: T,
  column: AnyPgColumn,
  values: readonly (number | string)[],
) {
  const source: PgTable = table
  const rows: Row<T>[] = []
  for (let i = 0; i < values.length; i += 1000)
    rows.push(
      ...((await db
        .select()
        .from(source)
        .where(inArray(column, values.slice(i, i + 1000)))) as Row<T>[]),
    )
  return rows
}

/** Adds a row; its new id. */
export async function insertId<T extends PgTable & { id: AnyPgColumn<{ data: number }> }>(
  db: DbOrTx,
  table: T,
  values: NewRow<T>,
) {
  const source: PgTable = table
  const [row] = await db
    .insert(source)
    .values(values as PgInsertValue<PgTable>)
    .returning({ id: table.id })
  return row!.id as number
}

/** Adds the row unless it would break a unique key (a second like, a second follow); whether it was added. */
export async function insertIfAbsent<T extends PgTable>(db: DbOrTx, table: T, values: NewRow<T>) {
  const source: PgTable = table
  const rows = await db
    .insert(source)
    .values(values as PgInsertValue<PgTable>)
    .onConflictDoNothing()
    .returning({ added: sql`1` })
  return rows.length > 0
}

/** The unique key an upsert meets (`target`, a partial index's `targetWhere`) and how it changes the row it meets. */
interface OnConflict<T extends PgTable> {
  target: AnyPgColumn | AnyPgColumn[]
  targetWhere?: SQL
  set: PgUpdateSetSource<T>
}

/**
 * Adds the row, or changes the one already holding its unique key by `conflict.set`, in one statement (two writers
 * at once give one row); the row as it stands after.
 */
export async function upsert<T extends PgTable>(
  db: DbOrTx,
  table: T,
  values: PgInsertValue<T>,
  conflict: OnConflict<T>,
) {
  const source: PgTable = table
  const [row] = await db
    .insert(source)
    .values(values as PgInsertValue<PgTable>)
    .onConflictDoUpdate(conflict as OnConflict<PgTable>)
    .returning()
  return row as Row<T>
}

/**
 * One step of a state machine kept in a row: changes the row (`set` names the new state) only while its state is
 * one of `from`, in one conditional update. The row after the step, or null when another step got there first.
 */
export async function transition<T extends PgTable & { id: AnyPgColumn; state: AnyPgColumn }>(
  db: DbOrTx,
  table: T,
  id: number,
  from: readonly T['state']['_']['data'][],
  set: Partial<NewRow<T>>,
) {
  return updateReturning(db, table, and(eq(table.id, id), inArray(table.state, [...from])), set)
}

/**
 * Sets the timestamp column `key` to `at` on the rows that match and do not have it yet (a code used, a session or a
 * right revoked): one conditional update, so of callers racing for the same row only the first changes it.
 */
export function stampOnce<T extends PgTable>(
  db: DbOrTx,
  table: T,
  key: keyof T['_']['columns'] & string,
  at: Date,
  where: SQL | undefined,
) {
  const source: PgTable = table
  return db
    .update(source)
    .set({ [key]: at })
    .where(and(where, isNull(getTableColumns(source)[key]!)))
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

/** A page of a list shown newest first: `limit` rows with an id below the cursor among those matching `where`. */
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

/** Where a page of a list shown newest first by a time starts: the time and id of the last row shown. */
export interface TimeCursor {
  at: Date
  id: number
}

/**
 * A list shown newest first by the time column `at` (ties by `id`, higher first): the condition for the rows after
 * `before` (every row without it) and that order.
 */
export function timeKeyset(at: AnyPgColumn, id: AnyPgColumn, before: TimeCursor | null) {
  return {
    after: before ? sql`(${at}, ${id}) < (${before.at.toISOString()}::timestamptz, ${before.id})` : undefined,
    order: [desc(at), desc(id)],
  }
}

/** A page of a list shown newest first by `at` (timeKeyset): `limit` rows after `before` among those matching `where`. */
export async function newestByTime<T extends PgTable & { id: AnyPgColumn }>(
  db: DbOrTx,
  table: T,
  at: AnyPgColumn,
  page: { before: TimeCursor | null; limit: number },
  where: (SQL | undefined)[] = [],
) {
  const source: PgTable = table
  const keyset = timeKeyset(at, table.id, page.before)
  const rows = await db
    .select()
    .from(source)
    .where(and(...where, keyset.after))
    .orderBy(...keyset.order)
    .limit(page.limit)
  return rows as Row<T>[]
}

/** `column = value`, or no condition when the filter was not given. */
export const eqIfGiven = <V>(column: AnyPgColumn, value: V | undefined) =>
  value === undefined ? undefined : eq(column, value)

/** `column` lies in [from, before); a bound not given leaves that side open (a list's date filter). */
export const inPeriod = (column: AnyPgColumn, from: Date | undefined, before: Date | undefined) =>
  and(from === undefined ? undefined : gte(column, from), before === undefined ? undefined : lt(column, before))

/** `at` lies in the window from `start` to `end` (end excluded); a null start or end leaves that side open. */
export const withinWindow = (start: AnyPgColumn, end: AnyPgColumn, at: Date) =>
  and(or(isNull(start), lte(start, at)), or(isNull(end), gt(end, at)))

/**
 * Sets these fields of row `id` only while `column` is still null (a one-time write: a contract signed, a version
 * published, a draft edited before publishing); the changed row, or null when it was set already.
 */
export async function updateWhileNull<T extends PgTable & { id: AnyPgColumn }>(
  db: DbOrTx,
  table: T,
  id: number,
  column: AnyPgColumn,
  set: Partial<NewRow<T>>,
) {
  return updateReturning(db, table, and(eq(table.id, id), isNull(column)), set)
}
