import { and, count, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven, inPeriod } from '#server/db/rows.ts'
import { containsGrams, orderOf, type ListSort } from '#server/db/list.ts'
import { comments, type CommentStatus, type CommentType } from '#server/db/schema/comments.ts'
import type { CommentSortKey } from '#shared/api/admin-comments.ts'

// Comments as staff moderate them: every status, filtered and sorted as the console's queue asks.

export interface CommentQueueFilter {
  status?: CommentStatus
  type?: CommentType
  memberId?: number
  courseId?: number
  text?: string
  from?: Date
  before?: Date
}

/** A comment row as staff see it (every status). */
export type StaffCommentRow = typeof comments.$inferSelect

function conditions(f: CommentQueueFilter): SQL | undefined {
  return and(
    eqIfGiven(comments.status, f.status),
    eqIfGiven(comments.type, f.type),
    eqIfGiven(comments.memberId, f.memberId),
    eqIfGiven(comments.courseId, f.courseId),
    f.text === undefined ? undefined : containsGrams(comments.content, f.text),
    inPeriod(comments.createdAt, f.from, f.before),
  )
}

const sortColumns = { id: comments.id, like_count: comments.likeCount }

/** One page of the comments the filter matches (ties by id). */
export async function searchComments(
  db: DbOrTx,
  f: CommentQueueFilter,
  sort: ListSort<CommentSortKey>,
  offset: number,
  limit: number,
) {
  return db
    .select()
    .from(comments)
    .where(conditions(f))
    .orderBy(...orderOf(sortColumns, sort, comments.id))
    .offset(offset)
    .limit(limit)
}

export async function countComments(db: DbOrTx, f: CommentQueueFilter) {
  const [row] = await db.select({ n: count() }).from(comments).where(conditions(f))
  return row?.n ?? 0
}
