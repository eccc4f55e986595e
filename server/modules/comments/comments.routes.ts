import type { FastifyRequest } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { emptyEnvelope, envelope, listEnvelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import { CommentReportBody } from '#shared/api/comment-reports.ts'
import type { StatsService } from '#server/modules/stats/stats.service.ts'
import {
  COMMENTS_PER_MINUTE,
  CONTENT_MAX,
  Comment,
  CommentDetailQuery,
  CommentPage,
  CommentThread,
  CommentsQuery,
  CourseClickBody,
  CreateCommentBody,
  KuaishouCommentsQuery,
  LikeBody,
  LikeResult,
  MemberCommentPage,
  MemberCommentsQuery,
  ModerationResponse,
  NewestCommentPage,
  OperateBody,
  OperateTypeBody,
  OperateTypeStatusBody,
  PrivateBody,
  TopCommentQuery,
} from './comments.schema.ts'
import type { CommentsService, Viewer } from './comments.service.ts'

/** The viewer of a public read: anonymous, a member, or staff (who also see hidden and private comments). */
function viewer(request: FastifyRequest): Viewer {
  const p = request.principal
  return { memberId: p?.memberId ?? null, staff: p !== null && p.role !== 'member' }
}

function member(request: FastifyRequest) {
  const p = requireRole(request)
  return { memberId: p.memberId, staff: p.role !== 'member' }
}

interface CommentsRoutesOptions {
  comments: CommentsService
  /** server/use-cases/read-kuaishou-course.ts `listKuaishouComments`, bound. */
  kuaishouComments: (
    viewer: Viewer,
    q: { course_id: number; cursor: number | undefined; limit: number },
  ) => Promise<{ list: Comment[]; next_cursor: string | null }>
  /** Only the comment area's click statistic. */
  stats: Pick<StatsService, 'commentAreaClick'>
}

/** Comments (spec 7): reading, writing, likes, privacy, staff moderation and the comment-area click. */
export const commentsRoutes = apiPlugin(
  { tags: ['comments'] },
  (r, { comments, stats, kuaishouComments }: CommentsRoutesOptions) => {
    r.get(
      '/comments',
      {
        summary:
          'Top-level comments of a course (course_id) or a video (vid): pinned first, then newest; with reply and like counts and liked-by-me',
        querystring: CommentsQuery,
        response: envelope(CommentPage),
      },
      async (request) => comments.list(viewer(request), request.query),
    )

    r.get(
      '/ksxd/course/comments',
      {
        summary:
          'Comments of a course sold on Kuaishou (the /course/ks landing page): newest first, paged; 404 when no Kuaishou SKU maps to the course',
        querystring: KuaishouCommentsQuery,
        response: envelope(NewestCommentPage),
      },
      async (request) => kuaishouComments(viewer(request), request.query),
    )

    r.get(
      '/commentDetail',
      {
        summary:
          'A comment thread: the top-level comment and its replies (oldest first, paged); a reply’s id opens its thread',
        querystring: CommentDetailQuery,
        response: envelope(CommentThread),
      },
      async (request) => comments.thread(viewer(request), request.query.id, request.query.cursor, request.query.limit),
    )

    r.get(
      '/topComment',
      {
        summary: 'Pinned, then featured, comments of a course and its videos (up to 10)',
        querystring: TopCommentQuery,
        response: listEnvelope(Comment),
      },
      async (request) => comments.top(viewer(request), request.query.course_id),
    )

    r.get(
      '/memberComments',
      {
        auth: 'required',
        summary: "The signed-in member's comments and replies, newest first, with their course and video",
        querystring: MemberCommentsQuery,
        response: envelope(MemberCommentPage),
      },
      async (request, memberId) => comments.mine(memberId, request.query.cursor, request.query.limit),
    )

    r.post(
      '/comment',
      {
        auth: 'required',
        summary: 'Post a comment on a course or video, or a reply (reply_to)',
        description: `Plain text, 1–${CONTENT_MAX} characters after trimming (465 otherwise). At most ${COMMENTS_PER_MINUTE} comments a minute per member (429). Replies are one level deep and private when what they answer is private.`,
        body: CreateCommentBody,
        response: envelope(Comment),
        msg: '评论成功',
      },
      async (request) => comments.create(member(request), request.body),
    )

    r.post(
      '/comment/like',
      {
        auth: 'required',
        summary: 'Like or unlike a comment (toggle, or `like` to set); one like per member',
        body: LikeBody,
        response: envelope(LikeResult),
      },
      async (request) => comments.like(member(request), request.body.id, request.body.like),
    )

    r.post(
      '/comment/report',
      {
        auth: 'required',
        summary:
          'Report a comment with a reason (one report per member per comment); staff see it in the reported queue',
        body: CommentReportBody,
        response: emptyEnvelope,
        msg: '已收到你的举报，我们会尽快处理',
      },
      async (request, memberId) => comments.report(memberId, request.body),
    )

    r.post(
      '/comment/private',
      {
        auth: 'required',
        summary:
          'Make a comment private (seen only by its author, the people in the conversation and staff) or public again; its author or staff',
        body: PrivateBody,
        response: ModerationResponse,
      },
      async (request) => comments.setPrivate(member(request), request.body.id, request.body.is_private),
    )

    r.post(
      '/comment/operate',
      {
        auth: 'staff',
        permission: 'comments.moderate',
        summary:
          'Staff: show (visible again), hide (only its author and staff see it) or delete (nobody sees it) a comment',
        body: OperateBody,
        response: ModerationResponse,
      },
      async ({ body }, staffId) => comments.operate(staffId, body.id, body.action),
    )

    r.post(
      '/comment/operateType',
      {
        auth: 'staff',
        permission: 'comments.moderate',
        summary:
          'Staff: pin (listed first) or feature (shown in /topComment) a top-level comment; unpin / unfeature undo only that kind',
        description:
          'At most 10 shown comments are pinned per course (its own comments, not its videos’) and per video: a pin over that answers 409 (so do /comment/operate and /comment/operateTypeStatus when they would show or pin one more).',
        body: OperateTypeBody,
        response: ModerationResponse,
      },
      async ({ body }, staffId) => comments.operateType(staffId, body.id, body.type),
    )

    r.post(
      '/comment/operateTypeStatus',
      {
        auth: 'staff',
        permission: 'comments.moderate',
        summary:
          'Staff: set a comment’s type (normal, pinned, featured) and/or status (shown, hidden, deleted) in one step',
        body: OperateTypeStatusBody,
        response: ModerationResponse,
      },
      async ({ body }, staffId) =>
        comments.operateTypeStatus(staffId, body.id, { type: body.type, status: body.status }),
    )

    r.post(
      '/comment/course/click',
      {
        summary: 'Record a click on a course’s comment area (statistics; signed in or not)',
        body: CourseClickBody,
        response: emptyEnvelope,
      },
      async ({ body }, memberId) =>
        stats.commentAreaClick(memberId, body.course_id, {
          position: body.position === undefined ? null : String(body.position),
          page: body.page ?? null,
        }),
    )
  },
)
