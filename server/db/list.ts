import { asc, count, desc, ilike, like, sql, type SQL } from 'drizzle-orm'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import type { AnyPgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './database.ts'

// The database half of the console's lists (server/http/admin-list.ts is the HTTP half): how a repository sorts
// one page and matches a search text. Each repository keeps its own WHERE and columns.

/** A list's sort: a key of the repository's sortable columns, ascending or descending. */
export interface ListSort<K extends string> {
  key: K
  desc: boolean
}

/**
 * The ORDER BY of one page: the chosen column, then `tieBreaker` (the primary key) the same way, so pages never
 * overlap when the column repeats. Columns named in `nullable` put their NULLs last either way (a member who never
 * signed in is not the "latest" one); the others sort plainly, so an index on them still serves the order.
 */
export function orderOf<K extends string>(
  sortable: Record<K, AnyPgColumn | SQL>,
  sort: ListSort<K>,
  tieBreaker: AnyPgColumn,
  nullable: readonly K[] = [],
): SQL[] {
  const dir = sort.desc ? desc : asc
  const column = sortable[sort.key]
  const first = nullable.includes(sort.key)
    ? sql`${column} ${sql.raw(sort.desc ? 'desc' : 'asc')} nulls last`
    : dir(column)
  return [first, dir(tieBreaker)]
}

/** `text` with `%`, `_` and `\` escaped: a LIKE pattern built around it matches it as written. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** `column` contains `text` ignoring case; `%`, `_` and `\` in the text match themselves. */
export function containsText(column: AnyPgColumn | SQL, text: string): SQL {
  return ilike(column, `%${likeLiteral(text)}%`)
}

/** `column` starts with `text` (case counts); `%`, `_` and `\` in the text match themselves. */
export function startsWithText(column: AnyPgColumn, text: string): SQL {
  return like(column, `${likeLiteral(text)}%`)
}

/**
 * `containsText` for a column with a `text_grams` GIN index (migrations 0037 and 0038: members' nicknames, course
 * and lesson titles, comments): the index finds the rows that have every two-character piece of `text` (its
 * character, when it is one long), and ILIKE checks them. A one- or two-character Chinese search uses the index
 * too, where pg_trgm's needs three.
 */
export function containsGrams(column: AnyPgColumn, text: string): SQL {
  return sql`(text_grams(${column}) @> text_query_grams(${text}) and ${containsText(column, text)})`
}

/**
 * For statements written as text (the learners' search): `column` starts with `prefix` (SQL expressions), as the
 * range an index on the column reads, from the prefix to the prefix followed by chr(1114111), the last code point.
 * An exact prefix test only for a column in the "C" collation, where that code point sorts above every other:
 * `course_terms.term` and `search_words.word` are (migrations 0021 and 0032).
 */
export function prefixRangeSql(column: string, prefix: string): string {
  return `${column} >= ${prefix} and ${column} < ${prefix} || chr(1114111)`
}

/** Where one page starts and how many rows it holds. */
export interface ListWindow {
  offset: number
  limit: number
}

/**
 * Whole rows of `table` matching `where`, one window of them in `order` (orderOf). A repository passes its own
 * table in, so what it may touch is still what it imports.
 */
export async function readPage<T extends PgTable>(
  db: DbOrTx,
  table: T,
  where: SQL | undefined,
  order: SQL[],
  window: ListWindow,
): Promise<T['$inferSelect'][]> {
  const source: PgTable = table
  return db
    .select()
    .from(source)
    .where(where)
    .orderBy(...order)
    .offset(window.offset)
    .limit(window.limit)
}

/** An inner join of another table of the module, for the columns a list's selection reads from it. */
export interface ListJoin {
  table: PgTable
  on: SQL
}

/**
 * readPage with a chosen selection: `fields` names what each row of the page holds (the table's row, and beside it
 * a count of another table of the module, or a column of the `join`ed one, say).
 */
async function readPageOf<F extends SelectedFields>(
  db: DbOrTx,
  table: PgTable,
  fields: F,
  where: SQL | undefined,
  order: SQL[],
  window: ListWindow,
  join?: ListJoin,
) {
  const selection: SelectedFields = fields
  const from = db.select(selection).from(table).$dynamic()
  const rows = await (join ? from.innerJoin(join.table, join.on) : from)
    .where(where)
    .orderBy(...order)
    .offset(window.offset)
    .limit(window.limit)
  return rows as SelectResultFields<F>[]
}

/** How many rows of `table` match `where` (a list's total). */
export async function countWhere(db: DbOrTx, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where)
  return row?.n ?? 0
}

/** A table whose rows have an `id`, the key a list's pages break ties with. */
type TableWithId = PgTable & { id: AnyPgColumn }

/**
 * The console list of one table: `page` reads the window of rows the filter matches in the chosen sort (orderOf,
 * ties by the table's id, `nullable` keys with their NULLs last), `count` the total the same filter matches.
 */
export function tableList<T extends TableWithId, F, K extends string>(
  table: T,
  where: (filter: F) => SQL | undefined,
  sortable: Record<K, AnyPgColumn | SQL>,
  nullable: readonly NoInfer<K>[] = [],
) {
  return {
    page: (db: DbOrTx, filter: F, sort: ListSort<K>, window: ListWindow) =>
      readPage(db, table, where(filter), orderOf(sortable, sort, table.id, nullable), window),
    count: (db: DbOrTx, filter: F) => countWhere(db, table, where(filter)),
  }
}

/**
 * tableList with a chosen selection (readPageOf): each row of a page holds `fields`, read from `table` and the
 * table `join` names; the total counts the rows of `table` the filter matches.
 */
export function selectList<S extends SelectedFields, F, K extends string>(
  table: TableWithId,
  fields: S,
  where: (filter: F) => SQL | undefined,
  sortable: Record<K, AnyPgColumn | SQL>,
  options: { nullable?: readonly NoInfer<K>[]; join?: ListJoin } = {},
) {
  return {
    page: (db: DbOrTx, filter: F, sort: ListSort<K>, window: ListWindow) => {
      const order = orderOf(sortable, sort, table.id, options.nullable)
      return readPageOf(db, table, fields, where(filter), order, window, options.join)
    },
    count: (db: DbOrTx, filter: F) => countWhere(db, table, where(filter)),
  }
}
