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

/** Whether this member follows the teacher. */
export async function findFollowing(db: DbOrTx, memberId: number, teacherId: number) {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(follows)
    .where(and(eq(follows.memberId, memberId), eq(follows.teacherId, teacherId)))
    .limit(1)
  return row !== undefined
}
