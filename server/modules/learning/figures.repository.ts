import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { studyProgress } from '#server/db/schema/learning.ts'

/**
 * Watching in [from, to) and in [recentFrom, to) (the operators' dashboard): learners who saved progress and the
 * lessons (member × video) they watched. A progress row keeps only its last save, so a lesson watched again later
 * counts in the later period. Read from study_progress_updated_member_idx alone and counted per member first (a hash
 * of the period's learners): `count(distinct …)` sorted every row of the period, 1.0–1.6 s for 30 days at ten
 * million rows, against 0.35 s.
 */
export async function watchingFigures(db: DbOrTx, from: Date, recentFrom: Date, to: Date) {
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`
  const { rows } = await db.execute<{ learners: number; plays: number; recentLearners: number; recentPlays: number }>(
    sql`select count(*)::int as learners, coalesce(sum(m.plays), 0)::int as plays,
      count(*) filter (where m.recent > 0)::int as "recentLearners", coalesce(sum(m.recent), 0)::int as "recentPlays"
    from (select member_id, count(*) as plays, count(*) filter (where updated_at >= ${at(recentFrom)}) as recent
      from ${studyProgress} where updated_at >= ${at(from)} and updated_at < ${at(to)}
      group by member_id) m`,
  )
  return rows[0] ?? { learners: 0, plays: 0, recentLearners: 0, recentPlays: 0 }
}
