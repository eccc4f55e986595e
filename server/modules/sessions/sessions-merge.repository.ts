import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Revokes every live session of a member; their token hashes. */
export async function revokeMemberSessions(tx: DbOrTx, memberId: number, at: Date) {
  const result = await tx.execute<{ token_hash: string }>(
    sql`update sessions set revoked_at = ${at} where member_id = ${memberId} and revoked_at is null returning token_hash`,
  )
  return result.rows.map((r) => r.token_hash)
}
