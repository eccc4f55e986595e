import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Moves a member's uploaded images (avatars) to another member (bind phone's merge); how many. */
export async function moveUploadRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update uploads set member_id = ${to} where member_id = ${from}`)
  return moved.rowCount ?? 0
}
