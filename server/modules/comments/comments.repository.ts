import { and, asc, desc, eq, gt, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { deleteWhere, insertId, insertIfAbsent } from '#server/db/rows.ts'
import { commentLikes, comments, type CommentStatus, type CommentType } from '#server/db/schema/comments.ts'

/** Who is looking: the member (null: anonymous) and whether they are staff (staff and admin roles). */
export interface Viewer {
  memberId: number | null
  staff: boolean
}

interface VisibilityColumns {
  memberId: SQL
  threadMemberId: SQL
  replyToMemberId: SQL
  status: SQL
  isPrivate: SQL
}

/**
 * Who sees a comment. Deleted: nobody. Hidden: its author and staff. Private: its author, the author of the
 * thread, the member it answers, and staff. Everything else: everyone.
 */
function visibleTo(v: Viewer, c: VisibilityColumns): SQL {
  if (v.staff) return sql`${c.status} <> 'deleted'`
  if (v.memberId === null) return sql`(${c.status} = 'shown' and not ${c.isPrivate})`
  const me = v.memberId
  return sql`(${c.status} <> 'deleted' and (${c.memberId} = ${me} or (${c.status} = 'shown' and (not ${c.isPrivate} or ${c.threadMemberId} = ${me} or ${c.replyToMemberId} = ${me}))))`
}

const main: VisibilityColumns = {
  memberId: sql`${comments.memberId}`,
  threadMemberId: sql`${comments.threadMemberId}`,
  replyToMemberId: sql`${comments.replyToMemberId}`,
  status: sql`${comments.status}`,
  isPrivate: sql`${comments.isPrivate}`,
}

const reply: VisibilityColumns = {
  memberId: sql`r.member_id`,
  threadMemberId: sql`r.thread_member_id`,
  replyToMemberId: sql`r.reply_to_member_id`,
  status: sql`r.status`,
  isPrivate: sql`r.is_private`,
}

/**
 * The comment as the viewer sees it: author and answered member (ids: their names come from the members module),
 * like state and the replies they can see.
 */
function commentColumns(v: Viewer) {
  // Spelled out: in a one-table select drizzle leaves column names unqualified, and inside these subqueries "id"
  // would bind to the inner table.
  const thisComment = sql`"comments"."id"`
  return {
    id: comments.id,
    courseId: comments.courseId,
    videoId: comments.videoId,
    parentId: comments.parentId,
    memberId: comments.memberId,
    content: comments.content,
    isPrivate: comments.isPrivate,
    status: comments.status,
    type: comments.type,
    likeCount: comments.likeCount,
    createdAt: comments.createdAt,
    replyToId: comments.replyToId,
    replyToMemberId: comments.replyToMemberId,
    liked:
      v.memberId === null
        ? sql<boolean>`false`
        : sql<boolean>`exists (select 1 from comment_likes l where l.comment_id = ${thisComment} and l.member_id = ${v.memberId})`,
    replyCount:
      sql<number>`(select count(*)::int from comments r where r.parent_id = ${thisComment} and ${visibleTo(v, reply)})`.mapWith(
        Number,
      ),
  }
}

export type CommentRow = Awaited<ReturnType<typeof selectComments>>[number]

function selectComments(db: DbOrTx, v: Viewer, where: SQL | undefined, order: SQL[], limit: number) {
  return db
    .select(commentColumns(v))
    .from(comments)
    .where(and(visibleTo(v, main), where))
    .orderBy(...order)
    .limit(limit)
}

export type CommentTarget = { courseId: number; videoId?: undefined } | { videoId: number; courseId?: undefined }

function topLevelOf(target: CommentTarget): SQL {
  return target.videoId !== undefined
    ? and(eq(comments.videoId, target.videoId), isNull(comments.parentId))!
    : and(eq(comments.courseId, target.courseId), isNull(comments.videoId), isNull(comments.parentId))!
}

/** Pinned top-level comments of a course or video, newest first (a course's through comments_pinned_idx). */
export async function listPinned(db: DbOrTx, v: Viewer, target: CommentTarget, limit: number) {
  // Written out: a generic plan (server/db/database.ts) uses the partial index only for a literal predicate.
  return selectComments(db, v, and(topLevelOf(target), sql`${comments.type} = 'pinned'`), [desc(comments.id)], limit)
}

/**
 * Top-level comments, newest first, ids below `before`: those not pinned (the pinned ones come first, from
 * `listPinned`), or all of them with `withPinned` (a list in plain time order).
 */
export async function listTopLevel(
  db: DbOrTx,
  v: Viewer,
  target: CommentTarget,
  before: number | undefined,
  limit: number,
  withPinned = false,
) {
  return selectComments(
    db,
    v,
    and(
      topLevelOf(target),
      withPinned ? undefined : ne(comments.type, 'pinned'),
      before === undefined ? undefined : lt(comments.id, before),
    ),
    [desc(comments.id)],
    limit,
  )
}

/** Pinned and featured top-level comments anywhere in a course (the course itself or its videos). */
export async function listTopComments(db: DbOrTx, v: Viewer, courseId: number, limit: number) {
  return selectComments(
    db,
    v,
    // `<> 'normal'` written out, not a parameter: the partial index comments_pinned_idx has that predicate, and the
    // app's generic plans (server/db/database.ts) match a partial index's predicate only against literals.
    and(eq(comments.courseId, courseId), isNull(comments.parentId), sql`${comments.type} <> 'normal'`),
    [sql`(${comments.type} = 'pinned') desc`, desc(comments.id)],
    limit,
  )
}

/** The comment `id` and, when it is a reply, its top-level comment — those the viewer may see. */
export async function findWithThread(db: DbOrTx, v: Viewer, id: number) {
  return selectComments(
    db,
    v,
    or(eq(comments.id, id), sql`${comments.id} = (select c2.parent_id from comments c2 where c2.id = ${id})`),
    [asc(comments.id)],
    2,
  )
}

/** One comment as the viewer sees it, or null. */
export async function findVisible(db: DbOrTx, v: Viewer, id: number) {
  const [row] = await selectComments(db, v, eq(comments.id, id), [asc(comments.id)], 1)
  return row ?? null
}

/** Replies of a top-level comment, oldest first, ids above `after`. */
export async function listReplies(db: DbOrTx, v: Viewer, parentId: number, after: number | undefined, limit: number) {
  return selectComments(
    db,
    v,
    and(eq(comments.parentId, parentId), after === undefined ? undefined : gt(comments.id, after)),
    [asc(comments.id)],
    limit,
  )
}

/** The member's own comments and replies (not deleted), newest first. */
export async function listMemberComments(db: DbOrTx, memberId: number, before: number | undefined, limit: number) {
  const v: Viewer = { memberId, staff: false }
  return db
    .select(commentColumns(v))
    .from(comments)
    .where(
      and(
        eq(comments.memberId, memberId),
        ne(comments.status, 'deleted'),
        before === undefined ? undefined : lt(comments.id, before),
      ),
    )
    .orderBy(desc(comments.id))
    .limit(limit)
}

/**
 * Serialises one member's comment writes (the rate limit counts, then inserts) until the transaction ends, and
 * answers how many comments they posted since `since`.
 */
export async function lockAndCountRecent(tx: DbOrTx, memberId: number, since: Date) {
  await tx.execute(sql`select pg_advisory_xact_lock(7274, ${memberId})`)
  const rows = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from comments where member_id = ${memberId} and created_at > ${since.toISOString()}::timestamptz`,
  )
  return rows.rows[0]?.n ?? 0
}

export async function insertComment(tx: DbOrTx, row: typeof comments.$inferInsert) {
  return insertId(tx, comments, row)
}

/** The fields moderation and the privacy switch read; any status (deleted too). */
export async function findForUpdate(tx: DbOrTx, id: number) {
  const [row] = await tx
    .select({
      id: comments.id,
      memberId: comments.memberId,
      parentId: comments.parentId,
      courseId: comments.courseId,
      videoId: comments.videoId,
      status: comments.status,
      type: comments.type,
      isPrivate: comments.isPrivate,
    })
    .from(comments)
    .where(eq(comments.id, id))
    .for('update')
  return row ?? null
}

/**
 * How many shown, pinned top-level comments a course (its own, not its videos') or a video has besides `exceptId`,
 * after waiting for any other pin in the same course to commit (a transaction-level advisory lock), so two pins at
 * once cannot both pass a limit.
 */
export async function countShownPinned(tx: DbOrTx, courseId: number, videoId: number | null, exceptId: number) {
  // One bigint key, apart from the two-integer keys other locks use (comment rates, redeem batches).
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`comment-pins:${courseId}`}, 0))`)
  const target: CommentTarget = videoId !== null ? { videoId } : { courseId }
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(comments)
    .where(
      and(
        topLevelOf(target),
        sql`${comments.type} = 'pinned'`,
        sql`${comments.status} = 'shown'`,
        ne(comments.id, exceptId),
      ),
    )
  return row!.n
}

export async function updateComment(
  tx: DbOrTx,
  id: number,
  set: { status?: CommentStatus; type?: CommentType; isPrivate?: boolean; moderatedBy?: number; moderatedAt?: Date },
) {
  const [row] = await tx
    .update(comments)
    .set(set)
    .where(eq(comments.id, id))
    .returning({ id: comments.id, status: comments.status, type: comments.type, isPrivate: comments.isPrivate })
  return row!
}

/** Adds the like if absent and counts it, in the caller's transaction; the new count, or null when it existed. */
export async function addLike(tx: DbOrTx, commentId: number, memberId: number, now: Date) {
  if (!(await insertIfAbsent(tx, commentLikes, { commentId, memberId, createdAt: now }))) return null
  const [row] = await tx
    .update(comments)
    .set({ likeCount: sql`${comments.likeCount} + 1` })
    .where(eq(comments.id, commentId))
    .returning({ likeCount: comments.likeCount })
  return row!.likeCount
}

/** Removes the like if present and uncounts it; the new count, or null when there was none. */
export async function removeLike(tx: DbOrTx, commentId: number, memberId: number) {
  const isLike = and(eq(commentLikes.commentId, commentId), eq(commentLikes.memberId, memberId))
  if ((await deleteWhere(tx, commentLikes, isLike)) === 0) return null
  const [row] = await tx
    .update(comments)
    .set({ likeCount: sql`${comments.likeCount} - 1` })
    .where(eq(comments.id, commentId))
    .returning({ likeCount: comments.likeCount })
  return row!.likeCount
}

export async function currentLikeCount(tx: DbOrTx, commentId: number) {
  const [row] = await tx.select({ likeCount: comments.likeCount }).from(comments).where(eq(comments.id, commentId))
  return row?.likeCount ?? 0
}
