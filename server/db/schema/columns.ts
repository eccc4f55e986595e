import { type SQL, sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  type ReferenceConfig,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// The column shapes every table repeats, written once. This file imports no table: a reference takes its target
// as a thunk, so tables in any file may point at each other without an import cycle here. The two table shapes
// here (`windowCounters`, `stateLog`) are factories; each table they make is declared where it is used.

/** The surrogate key: an identity integer; `startWith` for ids that show in URLs and should not look new. */
export const identity = (startWith?: number) =>
  integer()
    .primaryKey()
    .generatedAlwaysAsIdentity(startWith === undefined ? undefined : { startWith })

/** A point in time, stored with its zone (`timestamptz`). */
export const timestamptz = () => timestamp({ withTimezone: true })

/** When a row was made and last changed, both written by the code that writes the row. */
export const timestamps = () => ({
  createdAt: timestamptz().notNull(),
  updatedAt: timestamptz().notNull(),
})

/** When a row was made and last changed, the database's now() where an insert leaves them out. */
export const timestampsDefaultNow = () => ({
  createdAt: timestamptz().notNull().defaultNow(),
  updatedAt: timestamptz().notNull().defaultNow(),
})

/** What something sells for, in fen, and the list price shown struck through above it (none when null). */
export const prices = () => ({
  priceFen: integer().notNull(),
  originalPriceFen: integer(),
})

/**
 * A name as people compare names, for a unique index: letter case and every space (ASCII, full-width, no-break)
 * ignored, so 「软件」, 「软件 」, 「软 件」 and 「Ps」/「PS」 count as one name.
 */
export const sameName = (column: AnyPgColumn): SQL =>
  sql`lower(regexp_replace(${column}, '[\\s\\u3000\\u00a0]', '', 'g'))`

/** An integer foreign key to `target` (nullable; chain `.notNull()` for a required one). */
export const ref = (target: ReferenceConfig['ref'], actions?: ReferenceConfig['actions']) =>
  integer().references(target, actions)

/** A required foreign key whose row goes when its target goes (a member's notes, a course's chapters). */
export const cascadeRef = (target: ReferenceConfig['ref']) => ref(target, { onDelete: 'cascade' }).notNull()

/**
 * The first columns of a row that belongs to another (an order's items, a batch's codes, a member's notes): its own
 * id, and its owner's under `key`, whose going takes the row with it.
 */
export const ownedBy = <Key extends string>(key: Key, owner: ReferenceConfig['ref']) =>
  ({ id: identity(), [key]: cascadeRef(owner) }) as Owned<Key>
type Owned<Key extends string> = { id: ReturnType<typeof identity> } & Record<Key, ReturnType<typeof cascadeRef>>

/**
 * An append-only log of one kind of row's state changes (order_events, enrolment_events): each transition of the
 * row under `key`, who or what made it ("member:100001", "admin:100002", "provider:wechat", "system"), why, and with
 * what data; read per row in order, by the index `<name>_<owner>_idx` (order_events_order_idx).
 */
export const stateLog = <Name extends string, Key extends string, State extends string>(
  name: Name,
  key: Key,
  owner: ReferenceConfig['ref'],
  states: readonly [State, ...State[]],
) =>
  pgTable(
    name,
    {
      ...ownedBy(key, owner),
      fromState: text({ enum: states }),
      toState: text({ enum: states }).notNull(),
      reason: text().notNull(),
      actor: text().notNull(),
      data: jsonb().$type<Record<string, unknown>>(),
      createdAt: timestamptz().notNull(),
    },
    (t) => [index(`${name}_${key.replace(/Id$/, '')}_idx`).on(t[key], t.id)],
  )

/**
 * Hits per key (a rule and an address, a member) in a fixed window, shared by every process and kept across
 * restarts: one row per key with the hits of the current window and when it ends, reset in place or swept by age.
 */
export const windowCounters = <Name extends string>(name: Name) =>
  pgTable(
    name,
    {
      key: text().primaryKey(),
      hits: integer().notNull(),
      resetAt: timestamptz().notNull(),
    },
    (t) => [index(`${name}_reset_at_idx`).on(t.resetAt)],
  )
