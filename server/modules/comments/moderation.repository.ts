import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
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

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function conditions(f: CommentQueueFilter): SQL | undefined {
  return and(
    f.status === undefined ? undefined : eq(comments.status, f.status),
    f.type === undefined ? undefined : eq(comments.type, f.type),
    f.memberId === undefined ? undefined : eq(comments.memberId, f.memberId),
    f.courseId === undefined ? undefined : eq(comments.courseId, f.courseId),
    f.text === undefined ? undefined : sql`${comments.content} ilike ${likeText(f.text)}`,
    f.from === undefined ? undefined : gte(comments.createdAt, f.from),
    f.before === undefined ? undefined : lt(comments.createdAt, f.before),
  )
}

const sortColumns = { id: comments.id, like_count: comments.likeCount }

/** One page of the comments the filter matches (ties by id). */
export async function searchComments(
  db: DbOrTx,
  f: CommentQueueFilter,
  sort: { key: CommentSortKey; desc: boolean },
  offset: number,
  limit: number,
) {
  const dir = sort.desc ? desc : asc
  return db
    .select()
    .from(comments)
    .where(conditions(f))
    .orderBy(dir(sortColumns[sort.key]), dir(comments.id))
    .offset(offset)
    .limit(limit)
}

export async function countComments(db: DbOrTx, f: CommentQueueFilter) {
  const [row] = await db.select({ n: count() }).from(comments).where(conditions(f))
  return row?.n ?? 0
}
