import { eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { upsert } from '#server/db/rows.ts'
import { vipMemberships } from '#server/db/schema/access.ts'

/**
 * Adds `days` to a member's VIP, counted from the current expiry when it is still running and from `now`
 * otherwise, in one statement (two payments at once both count). Returns the new expiry.
 */
export async function extendMembership(db: DbOrTx, memberId: number, days: number, now: Date) {
  const at = now.toISOString()
  const values = { memberId, expiresAt: sql`${at}::timestamptz + ${days} * interval '1 day'`, updatedAt: now }
  const row = await upsert(db, vipMemberships, values, {
    target: vipMemberships.memberId,
    set: {
      expiresAt: sql`greatest(${vipMemberships.expiresAt}, ${at}::timestamptz) + ${days} * interval '1 day'`,
      updatedAt: now,
    },
  })
  return row.expiresAt
}

/** Takes `days` back (a refunded VIP order). Returns the new expiry, or null when the member has no VIP row. */
export async function shortenMembership(db: DbOrTx, memberId: number, days: number, now: Date) {
  const [row] = await db
    .update(vipMemberships)
    .set({ expiresAt: sql`${vipMemberships.expiresAt} - ${days} * interval '1 day'`, updatedAt: now })
    .where(eq(vipMemberships.memberId, memberId))
    .returning({ expiresAt: vipMemberships.expiresAt })
  return row?.expiresAt ?? null
}

export async function findMembership(db: DbOrTx, memberId: number) {
  const [row] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, memberId))
  return row ?? null
}

/** The VIP expiry of each of these members who ever had VIP (one statement, by the primary key). */
export async function membershipExpiries(db: DbOrTx, memberIds: number[]): Promise<Map<number, Date>> {
  if (memberIds.length === 0) return new Map()
  const rows = await db
    .select({ memberId: vipMemberships.memberId, expiresAt: vipMemberships.expiresAt })
    .from(vipMemberships)
    .where(inArray(vipMemberships.memberId, memberIds))
  return new Map(rows.map((r) => [r.memberId, r.expiresAt]))
}
