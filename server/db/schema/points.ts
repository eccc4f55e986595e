import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { memberOwned, members } from './members.ts'
import { orders } from './orders.ts'
import { ref, timestamptz } from './columns.ts'
import { PointReasons, type PointReason } from '#shared/point-reasons.ts'

/** The cached balance of the points ledger: always the sum of the member's entries, never negative. */
export const pointBalances = pgTable(
  'point_balances',
  {
    memberId: ref(() => members.id, { onDelete: 'cascade' }).primaryKey(),
    balance: integer().notNull().default(0),
    updatedAt: timestamptz().notNull(),
  },
  (t) => [check('point_balances_not_negative_ck', sql`${t.balance} >= 0`)],
)

/** Why an entry was made: the one list with its Chinese names (shared/point-reasons.ts). */
export const pointReasons = PointReasons
export type { PointReason }

/** Append-only points ledger: each change with the balance after it, why, and who. */
export const pointEntries = pgTable(
  'point_entries',
  {
    ...memberOwned(),
    delta: integer().notNull(),
    balanceAfter: integer().notNull(),
    reason: text({ enum: pointReasons }).notNull(),
    orderId: ref(() => orders.id),
    /** "system", "admin:100002", "member:100001". */
    actor: text().notNull(),
    note: text(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [
    index('point_entries_member_idx').on(t.memberId, t.id),
    index('point_entries_order_idx').on(t.orderId),
    // The operators' dashboard: points given and spent in a period (append-only, so time follows the heap).
    index('point_entries_created_brin').using('brin', t.createdAt),
    check('point_entries_delta_ck', sql`${t.delta} <> 0 and ${t.balanceAfter} >= 0`),
  ],
)
