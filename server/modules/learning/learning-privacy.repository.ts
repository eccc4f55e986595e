import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/** A member's viewing progress and notes (data export, issue 10 §5). */
export async function selectMemberLearning(db: DbOrTx, memberId: number) {
  const [p, n] = await Promise.all([
    db.execute(sql`
      select course_id, video_id, position, duration, finished_at, created_at, updated_at
      from study_progress where member_id = ${memberId} order by updated_at`),
    db.execute(sql`select * from video_notes where member_id = ${memberId} order by id`),
  ])
  return { progress: p.rows, notes: n.rows }
}

/** Deletes a member's viewing progress and notes (account deletion). */
export async function deleteMemberLearning(tx: DbOrTx, memberId: number) {
  const p = await tx.execute(sql`delete from study_progress where member_id = ${memberId}`)
  const n = await tx.execute(sql`delete from video_notes where member_id = ${memberId}`)
  return { progress: p.rowCount ?? 0, notes: n.rowCount ?? 0 }
}
