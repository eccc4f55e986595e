import { z } from 'zod'
import { CommentReportReasons } from '#shared/comment-report-reasons.ts'
import { commentStatuses, commentTypes } from '#server/db/schema/comments.ts'
import { envelope } from '#server/http/envelope.ts'
import { BodyId, IdPageQuery, IdQuery, OptionalIdQuery } from '#shared/api/params.ts'

export const CONTENT_MAX = 500
/** At most this many comments (replies included) per member in any minute. */
export const COMMENTS_PER_MINUTE = 10

// ---- Requests ----------------------------------------------------------------------------------------------

export const CommentsQuery = z
  .object({
    course_id: OptionalIdQuery.describe('Comments on the course itself'),
    vid: OptionalIdQuery.describe('Comments on one video'),
    ...IdPageQuery.shape,
  })
  .refine((q) => (q.course_id === undefined) !== (q.vid === undefined), {
    message: '需要 course_id 或 vid 其中一个',
    path: ['course_id'],
  })
export type CommentsQuery = z.output<typeof CommentsQuery>

/** GET /ksxd/course/comments: a course sold on Kuaishou, a page of its comments. */
export const KuaishouCommentsQuery = z.object({ course_id: IdQuery, ...IdPageQuery.shape })

export const CommentDetailQuery = z.object({ id: IdQuery, ...IdPageQuery.shape })
export const TopCommentQuery = z.object({ course_id: IdQuery })
export const MemberCommentsQuery = IdPageQuery

export const CreateCommentBody = z
  .object({
    course_id: BodyId.optional().describe('Comment on a course'),
    vid: BodyId.optional().describe('Comment on a video'),
    reply_to: BodyId.optional().describe(
      'Answer this comment (its course or video is used); replies are one level deep',
    ),
    content: z
      .string()
      .max(4 * CONTENT_MAX)
      .describe(`Plain text, 1–${CONTENT_MAX} characters after trimming`),
    is_private: z.boolean().optional().describe('Seen only by the author, the people in the conversation and staff'),
  })
  .refine((b) => b.reply_to !== undefined || (b.course_id === undefined) !== (b.vid === undefined), {
    message: '需要 course_id、vid 或 reply_to',
    path: ['course_id'],
  })
export type CreateCommentBody = z.output<typeof CreateCommentBody>

export const LikeBody = z.object({
  id: BodyId,
  like: z.boolean().optional().describe('true: like, false: unlike; left out: toggle'),
})

export const PrivateBody = z.object({
  id: BodyId,
  is_private: z.boolean().optional().describe('The new setting; left out: toggle'),
})

export const OperateBody = z.object({ id: BodyId, action: z.enum(['show', 'hide', 'delete']) })
export const OperateTypeBody = z.object({ id: BodyId, type: z.enum(['pin', 'unpin', 'feature', 'unfeature']) })
export const OperateTypeStatusBody = z
  .object({ id: BodyId, type: z.enum(commentTypes).optional(), status: z.enum(commentStatuses).optional() })
  .refine((b) => b.type !== undefined || b.status !== undefined, { message: '需要 type 或 status', path: ['type'] })

export const CourseClickBody = z.object({
  course_id: BodyId,
  position: z.union([z.number().int().min(0).max(1_000_000), z.string().max(32)]).optional(),
  page: z.string().max(300).optional(),
})

// ---- Responses ---------------------------------------------------------------------------------------------

const CommentAuthor = z.object({ id: z.number().int(), nickname: z.string(), avatar: z.string().nullable() })

export const Comment = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  vid: z.number().int().nullable(),
  parent_id: z.number().int().nullable().describe('The top-level comment of a reply; null for a top-level comment'),
  author: CommentAuthor,
  content: z.string().describe('Plain text: render escaped, keep line breaks'),
  created_at: z.string(),
  like_count: z.number().int(),
  liked: z.boolean().describe('Liked by the signed-in member'),
  reply_count: z.number().int().describe('Replies the viewer can see (top-level comments)'),
  is_private: z.boolean(),
  status: z.enum(commentStatuses).describe('Members see hidden only on their own comments; staff see all but deleted'),
  type: z.enum(commentTypes),
  mine: z.boolean(),
  reply_to: z
    .object({ id: z.number().int(), member_id: z.number().int(), nickname: z.string() })
    .nullable()
    .describe('Whom a reply answers'),
})
export type Comment = z.infer<typeof Comment>

export const CommentPage = z.object({
  list: z.array(Comment).describe('First page: pinned comments first, then the newest'),
  next_cursor: z.string().nullable(),
})

/** A course's comments in plain time order (the Kuaishou landing page). */
export const NewestCommentPage = CommentPage.extend({
  list: z.array(Comment).describe('Newest first, pinned comments in their place'),
})

export const CommentThread = z.object({
  comment: Comment.describe('The top-level comment'),
  focus_id: z.number().int().describe('The comment asked for (a reply or the top-level comment itself)'),
  replies: z.array(Comment).describe('Oldest first'),
  next_cursor: z.string().nullable(),
})

export const MemberComment = Comment.extend({
  course: z.object({ id: z.number().int(), title: z.string(), cover: z.string() }),
  video: z.object({ id: z.number().int(), title: z.string() }).nullable(),
})
export const MemberCommentPage = z.object({ list: z.array(MemberComment), next_cursor: z.string().nullable() })

export const LikeResult = z.object({ id: z.number().int(), liked: z.boolean(), like_count: z.number().int() })

export const ModerationResult = z.object({
  id: z.number().int(),
  status: z.enum(commentStatuses),
  type: z.enum(commentTypes),
  is_private: z.boolean(),
})
export type ModerationResult = z.infer<typeof ModerationResult>

export const ModerationResponse = envelope(ModerationResult)

// ---- The operators' moderation queue (requests: shared/api/admin-comments.ts) -------------------------------

export const QueuedComment = z.object({
  id: z.number().int(),
  content: z.string(),
  status: z.enum(commentStatuses),
  type: z.enum(commentTypes),
  is_private: z.boolean(),
  like_count: z.number().int(),
  parent_id: z.number().int().nullable(),
  author: z.object({ id: z.number().int(), nickname: z.string() }),
  course: z.object({ id: z.number().int(), title: z.string() }),
  video: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  created_at: z.string(),
  moderated_by: z.number().int().nullable(),
  moderated_at: z.string().nullable(),
})
export type QueuedComment = z.infer<typeof QueuedComment>

/** A reported comment in the console's queue: open and all reports, their reasons, the latest learners' words. */
export const ReportedComment = QueuedComment.extend({
  open_reports: z.number().int(),
  reports: z.number().int(),
  reasons: z.array(z.enum(CommentReportReasons)),
  details: z.array(z.string()),
  last_reported_at: z.string(),
})
export type ReportedComment = z.infer<typeof ReportedComment>
