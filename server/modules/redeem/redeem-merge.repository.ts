import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's redeem code uses to another member (bind phone's merge): their grants (entitlements with
 * source_ref `redeem:<use id>`) move with the access module's rows, so the record, the per-member limit and a later
 * revocation keep finding them. How many.
 */
export async function moveRedeemUseRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update redeem_uses set member_id = ${to} where member_id = ${from}`)
  return moved.rowCount ?? 0
}
