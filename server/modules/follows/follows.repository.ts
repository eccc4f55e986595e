import { and, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { follows } from '#server/db/schema/follows.ts'

/** Follows the teacher if there is one and the member does not follow yet; true when a row was added. */
export async function insertFollow(db: DbOrTx, memberId: number, teacherId: number, now: Date) {
  const rows = await db.execute(sql`
    insert into follows (member_id, teacher_id, created_at)
    select ${memberId}, t.id, ${now.toISOString()}::timestamptz from teachers t where t.id = ${teacherId}
    on conflict do nothing
    returning teacher_id`)
  return rows.rows.length > 0
}

export async function deleteFollow(db: DbOrTx, memberId: number, teacherId: number) {
  const rows = await db
    .delete(follows)
    .where(and(eq(follows.memberId, memberId), eq(follows.teacherId, teacherId)))
    .returning({ teacherId: follows.teacherId })
  return rows.length > 0
}

/** The teacher's follower count and whether this member follows; null when there is no such teacher. */
export async function findFollowState(db: DbOrTx, memberId: number | null, teacherId: number) {
  const rows = await db.execute<{ followed: boolean; follower_count: number }>(sql`
    select
      ${memberId === null ? sql`false` : sql`exists (select 1 from follows f where f.teacher_id = t.id and f.member_id = ${memberId})`} as followed,
      (select count(*)::int from follows f where f.teacher_id = t.id) as follower_count
    from teachers t where t.id = ${teacherId}`)
  return rows.rows[0] ?? null
}
