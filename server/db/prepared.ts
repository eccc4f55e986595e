import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { DbOrTx } from './database.ts'

// The same casing as the app's drizzle instance (server/db/database.ts), for the column names it renders.
const dialect = new PgDialect({ casing: 'snake_case' })

/**
 * Runs a hot statement as a named prepared statement, so PostgreSQL parses and plans it once per connection
 * instead of on every call (about 1 ms of server time for a large statement). `name` must stay tied to one SQL
 * text; only the parameters vary. Works on the pool and inside a transaction (on the transaction's connection).
 * Rows come as the driver gives them: snake_case names, timestamps as Date, bigint as text.
 */
export async function executePrepared<T extends pg.QueryResultRow>(db: DbOrTx, name: string, query: SQL): Promise<T[]> {
  const client = clientOf(db)
  if (!client) return (await db.execute<T>(query)).rows as T[]
  const { sql: text, params } = dialect.sqlToQuery(query)
  return (await client.query<T>({ name, text, values: params })).rows
}

/** A statement written once as text with `$n` parameters: nothing is built per call. */
export interface PreparedText {
  /** Unique per SQL text: PostgreSQL keeps the parsed statement under this name on each connection. */
  name: string
  text: string
}

/**
 * Runs a statement written as text (`preparedText`) as a named prepared statement with these parameter values: no
 * query builder on the hot path, and PostgreSQL parses and plans it once per connection.
 */
export async function queryPrepared<T extends pg.QueryResultRow>(
  db: DbOrTx,
  statement: PreparedText,
  values: unknown[],
): Promise<T[]> {
  const client = clientOf(db)
  if (!client) throw new Error(`queryPrepared(${statement.name}): the database handle has no pg client`)
  return (await client.query<T>({ name: statement.name, text: statement.text, values })).rows
}

/**
 * Statements written as text whose shape depends on the input (a search keyword's words, which of them are
 * prefixes): each text is prepared once per connection under a name of its own, `${prefix}_${n}`. Past `max` texts
 * (an input of a shape seldom seen again), a new text runs unnamed, parsed and planned on every call, rather than
 * adding to every connection's prepared statements.
 */
export function shapedStatements(prefix: string, max: number) {
  const byText = new Map<string, PreparedText>()
  return async <T extends pg.QueryResultRow>(db: DbOrTx, text: string, values: unknown[]): Promise<T[]> => {
    let statement = byText.get(text)
    if (!statement && byText.size < max) {
      statement = preparedText(`${prefix}_${byText.size + 1}`, text)
      byText.set(text, statement)
    }
    if (statement) return await queryPrepared<T>(db, statement, values)
    const client = clientOf(db)
    if (!client) throw new Error(`shapedStatements(${prefix}): the database handle has no pg client`)
    return (await client.query<T>({ text, values })).rows
  }
}

/**
 * The numbered parameters of a statement being written as text: `add` writes the next one's placeholder (with its
 * type) and keeps its value, so placeholders and values cannot fall out of step.
 */
export function statementParameters() {
  const values: unknown[] = []
  return {
    values,
    add: (value: unknown, type: 'text' | 'int') => {
      values.push(value)
      return `$${values.length}::${type}`
    },
  }
}

/** Declares a prepared statement: `name` must be unique per text across the app (PostgreSQL keys on it). */
export function preparedText(name: string, text: string): PreparedText {
  return { name, text }
}

/** The pool behind the database handle, or the one connection a transaction runs on. */
function clientOf(db: DbOrTx): pg.Pool | pg.Client | null {
  const pool = (db as { $client?: unknown }).$client
  if (pool instanceof pg.Pool) return pool
  // drizzle keeps a transaction's pooled connection on its session.
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client
  return client instanceof pg.Client ? client : null
}

/**
 * A column one module adds to a read another module writes as text over its own rows (the newest refund of each
 * order on the member's order list), so the read stays one statement: a scalar subquery over the composing row, and
 * how to read its value. The composing module puts `name` in its statement's name. The part's own tables take
 * aliases prefixed with its module (`ref_r`), so they cannot hide the composing statement's (`r.id` given to a part
 * that aliased its table `r` would compare the part's row with itself).
 */
export interface ColumnPart<T> {
  /** Part of the composed statement's name. */
  name: string
  /** The column's SQL over `row`, an expression of the composing statement (such as `o.id`). */
  sql: (row: string) => string
  /** The column's value as the driver gives it (json as parsed), as the composing module uses it. */
  read: (value: unknown) => T
}

/**
 * One module's part of a statement another module composes and runs (the payment fast path): common table
 * expressions over relations the composing module names, written by the module that owns the tables they touch,
 * and what the part adds to the statement's summary. Values are parameters, so the text of a composition is always
 * the same and can be a named prepared statement.
 */
export interface StatementPart {
  /** Part of the prepared statement's name. */
  name: string
  /**
   * CTEs that run before the row is settled (comma-separated, without WITH), over the relations the composing
   * module names for that (the order: `payable_courses`); a guard may read them.
   */
  before?: SQL
  /** One or more CTEs, comma-separated, without WITH, that run after the row is settled. */
  ctes: SQL
  /** A jsonb expression over its CTEs (nulls are dropped). */
  summary: SQL
  /**
   * A condition the row being settled must meet, over the composing module's row alias (the order: `o`). False
   * leaves everything as it was: the statement changes nothing and the caller takes its general path.
   */
  guard?: SQL
}
