import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Revokes every live session of a member; how many. */
export async function revokeMemberSessions(tx: DbOrTx, memberId: number, at: Date) {
  const result = await tx.execute(
    sql`update sessions set revoked_at = ${at} where member_id = ${memberId} and revoked_at is null`,
  )
  return result.rowCount ?? 0
}
