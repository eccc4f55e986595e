import { index, integer, pgTable, type ReferenceConfig, text, timestamp } from 'drizzle-orm/pg-core'

// The column shapes every table repeats, written once. This file imports no table: a reference takes its target
// as a thunk, so tables in any file may point at each other without an import cycle here. The one table shape
// here (`windowCounters`) is a factory; each table it makes is declared where it is used.

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

/** An integer foreign key to `target` (nullable; chain `.notNull()` for a required one). */
export const ref = (target: ReferenceConfig['ref'], actions?: ReferenceConfig['actions']) =>
  integer().references(target, actions)

/** A required foreign key whose row goes when its target goes (a member's notes, a course's chapters). */
export const cascadeRef = (target: ReferenceConfig['ref']) => ref(target, { onDelete: 'cascade' }).notNull()

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
