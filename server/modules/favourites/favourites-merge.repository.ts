import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** Moves a member's favourites to another member (bind phone's merge); one both favourited stays once. */
export async function moveFavouriteRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`
    update favourites f set member_id = ${to}
    where f.member_id = ${from}
      and not exists (
        select 1 from favourites g
        where g.member_id = ${to}
          and (g.course_id = f.course_id or g.video_id = f.video_id))`)
  await tx.execute(sql`delete from favourites where member_id = ${from}`)
  return moved.rowCount ?? 0
}
