import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's comments, replies, likes and reports to another member (bind phone's merge). A comment both liked keeps
 * one like, and its like count drops by the duplicate (the count always equals its rows).
 */
export async function moveCommentRows(tx: DbOrTx, from: number, to: number) {
  const moved = await tx.execute(sql`update comments set member_id = ${to} where member_id = ${from}`)
  await tx.execute(sql`update comments set thread_member_id = ${to} where thread_member_id = ${from}`)
  await tx.execute(sql`update comments set reply_to_member_id = ${to} where reply_to_member_id = ${from}`)
  await tx.execute(sql`
    with twice as (
      delete from comment_likes l where l.member_id = ${from}
        and exists (select 1 from comment_likes m where m.member_id = ${to} and m.comment_id = l.comment_id)
      returning comment_id)
    update comments c set like_count = c.like_count - 1 from twice where c.id = twice.comment_id`)
  const likes = await tx.execute(sql`update comment_likes set member_id = ${to} where member_id = ${from}`)
  // Reports: one per member per comment, so a comment both reported keeps the survivor's.
  await tx.execute(sql`
    update comment_reports r set member_id = ${to} where r.member_id = ${from}
      and not exists (select 1 from comment_reports s where s.member_id = ${to} and s.comment_id = r.comment_id)`)
  return { comments: moved.rowCount ?? 0, likes: likes.rowCount ?? 0 }
}
