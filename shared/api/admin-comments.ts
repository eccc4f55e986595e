import { z } from 'zod'
import { adminListQuery, BeijingDay } from './admin-list.ts'
import { OptionalIdQuery } from './params.ts'

// Comment moderation in the operators' console (request schemas; the console's forms validate with the same ones).

const commentSortKeys = ['id', 'like_count'] as const
export type CommentSortKey = (typeof commentSortKeys)[number]

/** GET /api/admin/comments: the moderation queue, newest first by default. */
export const CommentQueueQuery = adminListQuery(commentSortKeys, '-id').extend({
  status: z.enum(['shown', 'hidden', 'deleted']).optional(),
  type: z.enum(['normal', 'pinned', 'featured']).optional(),
  member_id: OptionalIdQuery,
  course_id: OptionalIdQuery,
  /** Part of the text. */
  q: z.string().trim().max(50, '搜索内容最多 50 个字').optional(),
  from: BeijingDay.optional(),
  to: BeijingDay.optional(),
})
export type CommentQueueQuery = z.output<typeof CommentQueueQuery>

/** POST /api/admin/comments/:id/moderate: what to do, and why (kept in the staff action log). */
export const CommentModeration = z.strictObject({
  action: z.enum(['show', 'hide', 'delete', 'pin', 'unpin', 'feature', 'unfeature']),
  reason: z.string().trim().min(2, '处理原因至少 2 个字').max(200, '处理原因最多 200 个字'),
})
export type CommentModeration = z.output<typeof CommentModeration>

const reportSortKeys = ['reports', 'last_reported_at'] as const
export type ReportSortKey = (typeof reportSortKeys)[number]

/** GET /api/admin/comments/reported: comments with reports not yet dealt with, the most reported first. */
export const ReportedQueueQuery = adminListQuery(reportSortKeys, '-reports').extend({
  /** open (default): reports no decision has cleared yet; all: every reported comment. */
  state: z.enum(['open', 'all']).default('open'),
  course_id: OptionalIdQuery,
})
export type ReportedQueueQuery = z.output<typeof ReportedQueueQuery>
