import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's exchanged platform order lines to another member (bind phone's merge): "already exchanged by"
 * then names the survivor, and a platform refund revokes from the survivor what the line granted. How many.
 */
export async function moveExchangeRecordRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update exchange_records set member_id = ${to} where member_id = ${from}`)
  return moved.rowCount ?? 0
}
