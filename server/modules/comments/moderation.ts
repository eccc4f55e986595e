import type { Db } from '#server/db/database.ts'
import { pageFrom, parseSort } from '#server/http/admin-list.ts'
import { idsOf } from '#server/http/present.ts'
import { courseTitlesByIds, videoTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberSummariesByIds } from '#server/modules/members/members.service.ts'
import type { CommentModeration, CommentQueueQuery, ReportedQueueQuery } from '#shared/api/admin-comments.ts'
import { beijingDayFromText } from '#shared/time.ts'
import type { ModerationResult } from './comments.schema.ts'
import { countComments, searchComments, type StaffCommentRow } from './moderation.repository.ts'
import { countReported, reportDetails, resolveReports, searchReported } from './reports.repository.ts'

/** What a moderation action does, through the comments service's own staff functions. */
interface Moderator {
  operate(staffId: number, id: number, action: 'show' | 'hide' | 'delete'): Promise<ModerationResult>
  operateType(staffId: number, id: number, type: 'pin' | 'unpin' | 'feature' | 'unfeature'): Promise<ModerationResult>
}

/** Comments as the console's queues list them: with author, course and video. */
async function queued(db: Db, rows: StaffCommentRow[]) {
  const [authors, courses, videos] = await Promise.all([
    memberSummariesByIds(db, idsOf(rows, 'memberId')),
    courseTitlesByIds(db, idsOf(rows, 'courseId')),
    videoTitlesByIds(db, idsOf(rows, 'videoId')),
  ])
  return rows.map((r) => ({
    id: r.id,
    content: r.content,
    status: r.status,
    type: r.type,
    is_private: r.isPrivate,
    like_count: r.likeCount,
    parent_id: r.parentId,
    author: { id: r.memberId, nickname: authors.get(r.memberId)?.nickname ?? '' },
    course: { id: r.courseId, title: courses.get(r.courseId)?.title ?? '' },
    video: r.videoId === null ? null : { id: r.videoId, title: videos.get(r.videoId) ?? '' },
    created_at: r.createdAt.toISOString(),
    moderated_by: r.moderatedBy,
    moderated_at: r.moderatedAt?.toISOString() ?? null,
  }))
}

/**
 * The operators' moderation queue: comments of every status with author, course and video, and one action per
 * call (show, hide, delete, pin, feature and their undos) with a reason the staff action log keeps.
 */
export function createCommentModeration(deps: { db: Db; comments: Moderator; now?: () => Date }) {
  const { db, comments } = deps
  const now = deps.now ?? (() => new Date())
  return {
    /** One page of the queue, filtered and sorted on the server. */
    async queue(q: CommentQueueQuery) {
      const filter = {
        status: q.status,
        type: q.type,
        memberId: q.member_id,
        courseId: q.course_id,
        text: q.q || undefined,
        from: q.from ? beijingDayFromText(q.from) : undefined,
        before: q.to ? beijingDayFromText(q.to, 1) : undefined,
      }
      return pageFrom(
        q,
        ({ offset, limit }) => searchComments(db, filter, parseSort(q.sort), offset, limit),
        () => countComments(db, filter),
        (rows) => queued(db, rows),
      )
    },

    /**
     * The reported comments, the most reported first (open reports: those no decision has cleared), with their
     * reasons and the latest learners' own words.
     */
    async reported(q: ReportedQueueQuery) {
      const filter = { openOnly: q.state === 'open', courseId: q.course_id }
      return pageFrom(
        q,
        ({ offset, limit }) => searchReported(db, filter, parseSort(q.sort), offset, limit),
        () => countReported(db, filter),
        async (rows) => {
          const reportedComments = rows.map((r) => r.comment)
          const [base, details] = await Promise.all([
            queued(db, reportedComments),
            reportDetails(db, idsOf(reportedComments, 'id')),
          ])
          return base.map((c, i) => ({
            ...c,
            open_reports: rows[i]!.open,
            reports: rows[i]!.total,
            reasons: rows[i]!.reasons,
            details: details.filter((d) => d.comment_id === c.id).map((d) => d.detail ?? ''),
            last_reported_at: new Date(rows[i]!.last).toISOString(),
          }))
        },
      )
    },

    /**
     * Applies one action (the reason is in the request the staff action log records). A decision on whether it may
     * be seen (show, hide, delete) clears the comment's open reports, so the reported queue moves on; pinning or
     * featuring does not answer a report, so it leaves them open.
     */
    async moderate(staffId: number, id: number, body: CommentModeration) {
      const a = body.action
      if (a === 'pin' || a === 'unpin' || a === 'feature' || a === 'unfeature')
        return comments.operateType(staffId, id, a)
      const result = await comments.operate(staffId, id, a)
      await resolveReports(db, id, now())
      return result
    },
  }
}

export type CommentModerationService = ReturnType<typeof createCommentModeration>
