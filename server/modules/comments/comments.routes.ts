import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { StatsService } from '#server/modules/stats/stats.service.ts'
import {
  COMMENTS_PER_MINUTE,
  CONTENT_MAX,
  CommentDetailQuery,
  CommentListResponse,
  CommentPageResponse,
  CommentResponse,
  CommentsQuery,
  CommentThreadResponse,
  CourseClickBody,
  CreateCommentBody,
  LikeBody,
  LikeResponse,
  MemberCommentPageResponse,
  MemberCommentsQuery,
  ModerationResponse,
  OperateBody,
  OperateTypeBody,
  OperateTypeStatusBody,
  PrivateBody,
  TopCommentQuery,
} from './comments.schema.ts'
import type { CommentsService, Viewer } from './comments.service.ts'

const tags = ['comments']

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
  /** Only the comment area's click statistic. */
  stats: Pick<StatsService, 'commentAreaClick'>
}

/** Comments (spec 7): reading, writing, likes, privacy, staff moderation and the comment-area click. */
export async function commentsRoutes(app: FastifyInstance, opts: CommentsRoutesOptions) {
  const { comments, stats } = opts
  const r = apiRoutes(app, { tags })

  r.get(
    '/comments',
    {
      summary:
        'Top-level comments of a course (course_id) or a video (vid): pinned first, then newest; with reply and like counts and liked-by-me',
      querystring: CommentsQuery,
      response: CommentPageResponse,
    },
    async (request) => comments.list(viewer(request), request.query),
  )

  r.get(
    '/commentDetail',
    {
      summary:
        'A comment thread: the top-level comment and its replies (oldest first, paged); a reply’s id opens its thread',
      querystring: CommentDetailQuery,
      response: CommentThreadResponse,
    },
    async (request) => comments.thread(viewer(request), request.query.id, request.query.cursor, request.query.limit),
  )

  r.get(
    '/topComment',
    {
      summary: 'Pinned, then featured, comments of a course and its videos (up to 10)',
      querystring: TopCommentQuery,
      response: CommentListResponse,
    },
    async (request) => comments.top(viewer(request), request.query.course_id),
  )

  r.get(
    '/memberComments',
    {
      config: { auth: 'required' },
      summary: "The signed-in member's comments and replies, newest first, with their course and video",
      querystring: MemberCommentsQuery,
      response: MemberCommentPageResponse,
    },
    async (request) => comments.mine(requireRole(request).memberId, request.query.cursor, request.query.limit),
  )

  r.post(
    '/comment',
    {
      config: { auth: 'required' },
      summary: 'Post a comment on a course or video, or a reply (reply_to)',
      description: `Plain text, 1–${CONTENT_MAX} characters after trimming (465 otherwise). At most ${COMMENTS_PER_MINUTE} comments a minute per member (429). Replies are one level deep and private when what they answer is private.`,
      body: CreateCommentBody,
      response: CommentResponse,
      msg: '评论成功',
    },
    async (request) => comments.create(member(request), request.body),
  )

  r.post(
    '/comment/like',
    {
      config: { auth: 'required' },
      summary: 'Like or unlike a comment (toggle, or `like` to set); one like per member',
      body: LikeBody,
      response: LikeResponse,
    },
    async (request) => comments.like(member(request), request.body.id, request.body.like),
  )

  r.post(
    '/comment/private',
    {
      config: { auth: 'required' },
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
      config: { auth: 'staff' },
      summary:
        'Staff: show (visible again), hide (only its author and staff see it) or delete (nobody sees it) a comment',
      body: OperateBody,
      response: ModerationResponse,
    },
    async (request) => comments.operate(requireRole(request, 'staff').memberId, request.body.id, request.body.action),
  )

  r.post(
    '/comment/operateType',
    {
      config: { auth: 'staff' },
      summary:
        'Staff: pin (listed first) or feature (shown in /topComment) a top-level comment; unpin / unfeature undo only that kind',
      body: OperateTypeBody,
      response: ModerationResponse,
    },
    async (request) => comments.operateType(requireRole(request, 'staff').memberId, request.body.id, request.body.type),
  )

  r.post(
    '/comment/operateTypeStatus',
    {
      config: { auth: 'staff' },
      summary:
        'Staff: set a comment’s type (normal, pinned, featured) and/or status (shown, hidden, deleted) in one step',
      body: OperateTypeStatusBody,
      response: ModerationResponse,
    },
    async (request) => {
      const { id, type, status } = request.body
      return comments.operateTypeStatus(requireRole(request, 'staff').memberId, id, { type, status })
    },
  )

  r.post(
    '/comment/course/click',
    {
      summary: 'Record a click on a course’s comment area (statistics; signed in or not)',
      body: CourseClickBody,
      response: emptyEnvelope,
    },
    async (request) => {
      const { course_id, position, page } = request.body
      await stats.commentAreaClick(request.principal?.memberId ?? null, course_id, {
        position: position === undefined ? null : String(position),
        page: page ?? null,
      })
      return {}
    },
  )
}
