import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

export async function selectMemberFavourites(db: DbOrTx, memberId: number) {
  return (await db.execute(sql`select course_id, video_id, created_at from favourites where member_id = ${memberId}`))
    .rows
}

export async function deleteMemberFavourites(tx: DbOrTx, memberId: number) {
  return (await tx.execute(sql`delete from favourites where member_id = ${memberId}`)).rowCount ?? 0
}
