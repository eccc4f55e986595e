import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Moves a member's follows to another member (bind phone's merge); a teacher both follow stays followed once. */
export async function moveFollowRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`
    with gone as (delete from follows where member_id = ${from} returning teacher_id, created_at)
    insert into follows (member_id, teacher_id, created_at) select ${to}, teacher_id, created_at from gone
    on conflict do nothing`)
  return moved.rowCount ?? 0
}
