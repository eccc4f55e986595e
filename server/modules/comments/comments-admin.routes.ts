import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import { CommentModeration, CommentQueueQuery, ReportedQueueQuery } from '#shared/api/admin-comments.ts'
import { IdParams } from '#shared/api/params.ts'
import { ModerationResponse, QueuedComment, ReportedComment } from './comments.schema.ts'
import type { CommentModerationService } from './comments.service.ts'

/** Comment moderation in the operators' console (under /api/admin/comments). */
export const adminCommentRoutes = adminPlugin(
  'comments.moderate',
  (r, { moderation }: { moderation: CommentModerationService }) => {
    // Permission: operator and assistant (moderation); teacher later, scoped to their own courses.
    listRoute(r, '/admin/comments', {
      summary: 'The moderation queue: comments of every status by status, type, member, course, text and day',
      querystring: CommentQueueQuery,
      row: QueuedComment,
      list: (q) => moderation.queue(q),
    })
    listRoute(r, '/admin/comments/reported', {
      summary: 'Reported comments, the most reported first, with their reasons (open: reports no decision cleared)',
      description:
        'Showing, hiding or deleting a comment (POST /admin/comments/:id/moderate) clears its open reports; pinning or featuring it does not.',
      querystring: ReportedQueueQuery,
      row: ReportedComment,
      list: (q) => moderation.reported(q),
    })
    r.post(
      '/admin/comments/:id/moderate',
      {
        summary: 'Show, hide, delete, pin or feature a comment (and undo pin / feature), with a reason',
        description:
          'Learners see the change at once: comment lists are read from the database on every request. At most 10 shown comments are pinned per course (its own comments, not its videos’) and per video: a pin, or showing a hidden pinned comment, over that answers 409.',
        params: IdParams,
        body: CommentModeration,
        response: ModerationResponse,
      },
      async (request, staffId) => moderation.moderate(staffId, request.params.id, request.body),
    )
  },
)
