import { desc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { studyProgress } from '#server/db/schema/learning.ts'

/** The courses of the member's `limit` most recently watched videos (a course may repeat), newest first. */
export async function findRecentlyWatchedCourseIds(db: DbOrTx, memberId: number, limit: number) {
  const rows = await db
    .select({ courseId: studyProgress.courseId })
    .from(studyProgress)
    .where(eq(studyProgress.memberId, memberId))
    .orderBy(desc(studyProgress.updatedAt))
    .limit(limit)
  return rows.map((r) => r.courseId)
}
