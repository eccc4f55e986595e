import { isNotNull, sql } from 'drizzle-orm'
import { type AnyPgColumn, boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { courses, videos } from './catalogue.ts'
import { memberOwned, members } from './members.ts'
import { CommentReportReasons } from '#shared/comment-report-reasons.ts'
import { cascadeRef, ref, timestamptz } from './columns.ts'

/** shown: everyone sees it (within its privacy); hidden: only its author and staff; deleted: nobody. */
export const commentStatuses = ['shown', 'hidden', 'deleted'] as const
export type CommentStatus = (typeof commentStatuses)[number]

/** pinned: listed before the others; featured: picked by staff (GET /topComment lists both). */
export const commentTypes = ['normal', 'pinned', 'featured'] as const
export type CommentType = (typeof commentTypes)[number]

/**
 * Comments on a course (video_id null) or on one of its videos, and replies to them. Replies are one level deep:
 * `parent_id` is always a top-level comment; `reply_to_id` is the comment (top-level or reply) answered.
 * Content is plain text, rendered escaped.
 */
export const comments = pgTable(
  'comments',
  {
    ...memberOwned(),
    courseId: cascadeRef(() => courses.id),
    videoId: ref(() => videos.id, { onDelete: 'cascade' }),
    parentId: ref((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    replyToId: ref((): AnyPgColumn => comments.id, { onDelete: 'set null' }),
    /** The author of the answered comment, for "回复 @昵称" and so a private thread's owner sees its replies. */
    replyToMemberId: ref(() => members.id, { onDelete: 'set null' }),
    /** The author of the top-level comment of the thread (the comment itself for a top-level one). */
    threadMemberId: cascadeRef(() => members.id),
    content: text().notNull(),
    /** Seen only by the author, the thread's author and staff. */
    isPrivate: boolean().notNull().default(false),
    status: text({ enum: commentStatuses }).notNull().default('shown'),
    type: text({ enum: commentTypes }).notNull().default('normal'),
    /** Kept equal to the rows in comment_likes by the same transaction that adds or removes a like. */
    likeCount: integer().notNull().default(0),
    createdAt: timestamptz().notNull(),
    /** Last moderation: who (staff member) and when. */
    moderatedBy: ref(() => members.id, { onDelete: 'set null' }),
    moderatedAt: timestamptz(),
  },
  (t) => [
    index('comments_course_idx')
      .on(t.courseId, t.id)
      .where(sql`${t.parentId} is null and ${t.videoId} is null`),
    index('comments_video_idx')
      .on(t.videoId, t.id)
      .where(sql`${t.parentId} is null and ${t.videoId} is not null`),
    index('comments_parent_idx').on(t.parentId, t.id).where(isNotNull(t.parentId)),
    index('comments_pinned_idx')
      .on(t.courseId)
      .where(sql`${t.type} <> 'normal'`),
    // My comments (newest first) and the per-member rate limit (comments in the last minute).
    index('comments_member_idx').on(t.memberId, t.id),
    index('comments_member_time_idx').on(t.memberId, t.createdAt),
    // Moderation: every comment of a course (replies and lesson comments too), or in a status, newest first.
    index('comments_course_all_idx').on(t.courseId, t.id),
    index('comments_status_idx').on(t.status, t.id),
    // Moderation, by part of the text (server/db/list.ts `containsGrams`).
    index('comments_content_grams_idx').using('gin', sql`text_grams(${t.content})`),
    check('comments_like_count_ck', sql`${t.likeCount} >= 0`),
    check('comments_content_ck', sql`char_length(${t.content}) between 1 and 500`),
  ],
)

/**
 * The key of a member's mark on a comment (a like, a report): the comment and the member, each taking the mark
 * with it when it goes. The tables make the pair their primary key: one mark of a kind per member per comment.
 */
const memberOnComment = () => ({
  commentId: cascadeRef(() => comments.id),
  memberId: cascadeRef(() => members.id),
})

/** One like per member per comment (the primary key makes a second one impossible). */
export const commentLikes = pgTable(
  'comment_likes',
  {
    ...memberOnComment(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.memberId] }), index('comment_likes_member_idx').on(t.memberId)],
)

/**
 * A learner's report of a comment, one per member per comment (the primary key). The console's queue of reported
 * comments lists the most reported first; a moderation decision clears them (`resolved_at`).
 */
export const commentReports = pgTable(
  'comment_reports',
  {
    ...memberOnComment(),
    reason: text({ enum: CommentReportReasons }).notNull(),
    /** The learner's own words, optional. */
    detail: text(),
    createdAt: timestamptz().notNull(),
    /** Set when staff moderated the comment after this report. */
    resolvedAt: timestamptz(),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.memberId] }),
    index('comment_reports_open_idx')
      .on(t.commentId)
      .where(sql`${t.resolvedAt} is null`),
    index('comment_reports_member_idx').on(t.memberId),
  ],
)
