import { and, gte, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { studyProgress } from '#server/db/schema/learning.ts'

/**
 * Watching in [from, to) and in [recentFrom, to) (the operators' dashboard; index study_progress_updated_idx):
 * learners who saved progress and the lessons (member × video) they watched. A progress row keeps only its last
 * save, so a lesson watched again later counts in the later period.
 */
export async function watchingFigures(db: DbOrTx, from: Date, recentFrom: Date, to: Date) {
  const recent = sql`${studyProgress.updatedAt} >= ${recentFrom.toISOString()}::timestamptz`
  const [row] = await db
    .select({
      learners: sql<number>`count(distinct ${studyProgress.memberId})::int`,
      plays: sql<number>`count(*)::int`,
      recentLearners: sql<number>`count(distinct ${studyProgress.memberId}) filter (where ${recent})::int`,
      recentPlays: sql<number>`count(*) filter (where ${recent})::int`,
    })
    .from(studyProgress)
    .where(and(gte(studyProgress.updatedAt, from), lt(studyProgress.updatedAt, to)))
  return row ?? { learners: 0, plays: 0, recentLearners: 0, recentPlays: 0 }
}
