import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { deleteWhere, insertIfAbsent } from '#server/db/rows.ts'
import { follows } from '#server/db/schema/follows.ts'

/** Follows the teacher unless the member already does; true when a row was added. The teacher must exist. */
export async function insertFollow(db: DbOrTx, memberId: number, teacherId: number, now: Date) {
  return insertIfAbsent(db, follows, { memberId, teacherId, createdAt: now })
}

export async function deleteFollow(db: DbOrTx, memberId: number, teacherId: number) {
  return (await deleteWhere(db, follows, and(eq(follows.memberId, memberId), eq(follows.teacherId, teacherId)))) > 0
}

/** The teacher's follower count (kept by triggers, see the teachers schema) and whether this member follows. */
export async function findFollowCounts(db: DbOrTx, memberId: number | null, teacherId: number) {
  const rows = await db.execute<{ followed: boolean; follower_count: number }>(sql`
    select
      ${memberId === null ? sql`false` : sql`exists (select 1 from follows f where f.teacher_id = ${teacherId} and f.member_id = ${memberId})`} as followed,
      coalesce((select t.follower_count from teachers t where t.id = ${teacherId}), 0) as follower_count`)
  return rows.rows[0]!
}
