import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** A member's comments and likes (data export, issue 10 §5). */
export async function selectMemberComments(db: DbOrTx, memberId: number) {
  const [c, l] = await Promise.all([
    db.execute(sql`
      select id, course_id, video_id, parent_id, content, is_private, status, created_at
      from comments where member_id = ${memberId} order by id`),
    db.execute(sql`select comment_id, created_at from comment_likes where member_id = ${memberId} order by created_at`),
  ])
  return { comments: c.rows, likes: l.rows }
}

/** Deletes a member's likes (the liked comments' counts follow) and comments (with the replies under them). */
export async function deleteMemberComments(tx: DbOrTx, memberId: number) {
  await tx.execute(sql`
    update comments set like_count = greatest(like_count - 1, 0)
    where id in (select comment_id from comment_likes where member_id = ${memberId})`)
  const l = await tx.execute(sql`delete from comment_likes where member_id = ${memberId}`)
  const c = await tx.execute(sql`delete from comments where member_id = ${memberId}`)
  return { likes: l.rowCount ?? 0, comments: c.rowCount ?? 0 }
}
