import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Moves a member's claimed coupons (any state, with their order links) to another member (bind phone's merge). */
export async function moveCouponRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update member_coupons set member_id = ${to} where member_id = ${from}`)
  return moved.rowCount ?? 0
}
