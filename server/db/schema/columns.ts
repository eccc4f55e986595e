import { integer, type ReferenceConfig, timestamp } from 'drizzle-orm/pg-core'

// The column shapes every table repeats, written once. This file defines no table and imports none: a reference
// takes its target as a thunk, so tables in any file may point at each other without an import cycle here.

/** The surrogate key: an identity integer; `startWith` for ids that show in URLs and should not look new. */
export const identity = (startWith?: number) =>
  integer()
    .primaryKey()
    .generatedAlwaysAsIdentity(startWith === undefined ? undefined : { startWith })

/** A point in time, stored with its zone (`timestamptz`). */
export const timestamptz = () => timestamp({ withTimezone: true })

/** An integer foreign key to `target` (nullable; chain `.notNull()` for a required one). */
export const ref = (target: ReferenceConfig['ref'], actions?: ReferenceConfig['actions']) =>
  integer().references(target, actions)

/** A required foreign key whose row goes when its target goes (a member's notes, a course's chapters). */
export const cascadeRef = (target: ReferenceConfig['ref']) => ref(target, { onDelete: 'cascade' }).notNull()
