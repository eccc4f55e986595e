import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Moves a member's refund requests to another member (bind phone's merge, with their orders). How many. */
export async function moveRefundRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update refunds set member_id = ${to} where member_id = ${from}`)
  return moved.rowCount ?? 0
}
