import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { members } from './members.ts'
import { cascadeRef, identity, ownedBy, ref, timestamptz, windowCounters } from './columns.ts'

/**
 * A batch of redeem codes (issue 14 §1): what each code grants (courses, or VIP days), when codes are valid, how
 * often a code and how many codes of the batch one member may use, and the operator's note (channel, reseller).
 * The codes themselves leave the server once, in the CSV answer of the batch's creation.
 */
export const redeemBatches = pgTable(
  'redeem_batches',
  {
    id: identity(),
    /** Operators' name for the batch (shown in the console and the learner's record). */
    name: text().notNull(),
    /** Courses each use grants (catalogue ids); empty when the batch grants VIP days. */
    courseIds: integer().array().notNull(),
    /** VIP days each use grants; null when the batch grants courses. */
    vipDays: integer(),
    codeCount: integer().notNull(),
    usesPerCode: integer().notNull().default(1),
    /** How many codes of this batch one member may use. */
    perMemberLimit: integer().notNull().default(1),
    validFrom: timestamptz().notNull(),
    validUntil: timestamptz().notNull(),
    note: text().notNull().default(''),
    createdBy: ref(() => members.id, { onDelete: 'set null' }),
    createdAt: timestamptz().notNull(),
    disabledAt: timestamptz(),
  },
  (t) => [
    index('redeem_batches_created_idx').on(t.createdAt),
    check('redeem_batches_grants_one', sql`(cardinality(${t.courseIds}) > 0) <> (${t.vipDays} is not null)`),
  ],
)

/**
 * One code: only the HMAC of its canonical form (server secret REDEEM_CODE_SECRET), so a copy of the database does
 * not give unused codes away. `serial` numbers the codes of a batch (the CSV's 序号).
 */
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    ...ownedBy('batchId', () => redeemBatches.id),
    serial: integer().notNull(),
    codeHash: text().notNull(),
    uses: integer().notNull().default(0),
    /** A revoked code grants nothing any more (its uses' grants were taken back). */
    revokedAt: timestamptz(),
  },
  (t) => [
    uniqueIndex('redeem_codes_hash_key').on(t.codeHash),
    uniqueIndex('redeem_codes_batch_serial_key').on(t.batchId, t.serial),
  ],
)

/** A member's use of a code: what it granted is the entitlements with source 'redeem' and source_ref `redeem:<id>`. */
export const redeemUses = pgTable(
  'redeem_uses',
  {
    ...ownedBy('codeId', () => redeemCodes.id),
    batchId: cascadeRef(() => redeemBatches.id),
    memberId: cascadeRef(() => members.id),
    /** Courses granted by this use (those the member did not own yet). */
    courseIds: integer().array().notNull(),
    vipDays: integer(),
    usedAt: timestamptz().notNull(),
    revokedAt: timestamptz(),
    revokedBy: ref(() => members.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('redeem_uses_member_idx').on(t.memberId, t.usedAt),
    index('redeem_uses_batch_member_idx').on(t.batchId, t.memberId),
    index('redeem_uses_code_idx').on(t.codeId),
  ],
)

/**
 * Wrong codes (unknown or mistyped) per member and per client address in the current hour, shared by every
 * process and kept across restarts: the guessing limit of GET /redeem_code and POST /redeem_code/exchange.
 */
export const redeemGuesses = windowCounters('redeem_guesses')
