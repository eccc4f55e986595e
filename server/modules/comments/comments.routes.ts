import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { emptyEnvelope, ok } from '#server/http/envelope.ts'
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
const security = [{ token: [] }]

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
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.get(
    '/comments',
    {
      schema: {
        tags,
        security,
        summary:
          'Top-level comments of a course (course_id) or a video (vid): pinned first, then newest; with reply and like counts and liked-by-me',
        querystring: CommentsQuery,
        response: { 200: CommentPageResponse },
      },
    },
    async (request) => ok(await comments.list(viewer(request), request.query)),
  )

  r.get(
    '/commentDetail',
    {
      schema: {
        tags,
        security,
        summary:
          'A comment thread: the top-level comment and its replies (oldest first, paged); a reply’s id opens its thread',
        querystring: CommentDetailQuery,
        response: { 200: CommentThreadResponse },
      },
    },
    async (request) =>
      ok(await comments.thread(viewer(request), request.query.id, request.query.cursor, request.query.limit)),
  )

  r.get(
    '/topComment',
    {
      schema: {
        tags,
        security,
        summary: 'Pinned, then featured, comments of a course and its videos (up to 10)',
        querystring: TopCommentQuery,
        response: { 200: CommentListResponse },
      },
    },
    async (request) => ok(await comments.top(viewer(request), request.query.course_id)),
  )

  r.get(
    '/memberComments',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: "The signed-in member's comments and replies, newest first, with their course and video",
        querystring: MemberCommentsQuery,
        response: { 200: MemberCommentPageResponse },
      },
    },
    async (request) =>
      ok(await comments.mine(requireRole(request).memberId, request.query.cursor, request.query.limit)),
  )

  r.post(
    '/comment',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Post a comment on a course or video, or a reply (reply_to)',
        description: `Plain text, 1–${CONTENT_MAX} characters after trimming (465 otherwise). At most ${COMMENTS_PER_MINUTE} comments a minute per member (429). Replies are one level deep and private when what they answer is private.`,
        body: CreateCommentBody,
        response: { 200: CommentResponse },
      },
    },
    async (request) => ok(await comments.create(member(request), request.body), '评论成功'),
  )

  r.post(
    '/comment/like',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Like or unlike a comment (toggle, or `like` to set); one like per member',
        body: LikeBody,
        response: { 200: LikeResponse },
      },
    },
    async (request) => ok(await comments.like(member(request), request.body.id, request.body.like)),
  )

  r.post(
    '/comment/private',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary:
          'Make a comment private (seen only by its author, the people in the conversation and staff) or public again; its author or staff',
        body: PrivateBody,
        response: { 200: ModerationResponse },
      },
    },
    async (request) => ok(await comments.setPrivate(member(request), request.body.id, request.body.is_private)),
  )

  r.post(
    '/comment/operate',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        security,
        summary:
          'Staff: show (visible again), hide (only its author and staff see it) or delete (nobody sees it) a comment',
        body: OperateBody,
        response: { 200: ModerationResponse },
      },
    },
    async (request) =>
      ok(await comments.operate(requireRole(request, 'staff').memberId, request.body.id, request.body.action)),
  )

  r.post(
    '/comment/operateType',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        security,
        summary:
          'Staff: pin (listed first) or feature (shown in /topComment) a top-level comment; unpin / unfeature undo only that kind',
        body: OperateTypeBody,
        response: { 200: ModerationResponse },
      },
    },
    async (request) =>
      ok(await comments.operateType(requireRole(request, 'staff').memberId, request.body.id, request.body.type)),
  )

  r.post(
    '/comment/operateTypeStatus',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        security,
        summary:
          'Staff: set a comment’s type (normal, pinned, featured) and/or status (shown, hidden, deleted) in one step',
        body: OperateTypeStatusBody,
        response: { 200: ModerationResponse },
      },
    },
    async (request) => {
      const { id, type, status } = request.body
      return ok(await comments.operateTypeStatus(requireRole(request, 'staff').memberId, id, { type, status }))
    },
  )

  r.post(
    '/comment/course/click',
    {
      schema: {
        tags,
        security,
        summary: 'Record a click on a course’s comment area (statistics; signed in or not)',
        body: CourseClickBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (request) => {
      const { course_id, position, page } = request.body
      await stats.commentAreaClick(request.principal?.memberId ?? null, course_id, {
        position: position === undefined ? null : String(position),
        page: page ?? null,
      })
      return ok({})
    },
  )
}
