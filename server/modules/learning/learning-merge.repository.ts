import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'

/**
 * Moves a member's study progress and notes to another member (bind phone's merge). Where both watched the same
 * video the furthest position wins, with the earliest finish and the first start; the rows of `from` go.
 */
export async function moveLearningRows(tx: DbOrTx, from: number, to: number) {
  const progress = await tx.execute(sql`
    with gone as (delete from study_progress where member_id = ${from} returning *)
    insert into study_progress (member_id, video_id, course_id, position, duration, finished_at, created_at, updated_at)
    select ${to}, video_id, course_id, position, duration, finished_at, created_at, updated_at from gone
    on conflict (member_id, video_id) do update set
      position = greatest(study_progress.position, excluded.position),
      duration = greatest(study_progress.duration, excluded.duration),
      finished_at = case
        when study_progress.finished_at is null then excluded.finished_at
        when excluded.finished_at is null then study_progress.finished_at
        else least(study_progress.finished_at, excluded.finished_at) end,
      created_at = least(study_progress.created_at, excluded.created_at),
      updated_at = greatest(study_progress.updated_at, excluded.updated_at)`)
  const notes = await tx.execute(sql`update video_notes set member_id = ${to} where member_id = ${from}`)
  return { progress: progress.rowCount ?? 0, notes: notes.rowCount ?? 0 }
}
