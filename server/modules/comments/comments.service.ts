import type { Db, DbOrTx } from '#server/db/database.ts'
import type { CommentStatus, CommentType } from '#server/db/schema/comments.ts'
import type { CommentReportBody } from '#shared/api/comment-reports.ts'
import { insertReport } from './reports.repository.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import {
  courseTitlesByIds,
  isPublishedCourse,
  publishedVideoCourseId,
  videoTitlesByIds,
} from '#server/modules/catalogue/catalogue.service.ts'
import { memberSummariesByIds, type MemberSummary } from '#server/modules/members/members.service.ts'
import {
  addLike,
  currentLikeCount,
  countShownPinned,
  findForUpdate,
  findVisible,
  findWithThread,
  insertComment,
  listMemberComments,
  listPinned,
  listReplies,
  listTopComments,
  listTopLevel,
  lockAndCountRecent,
  removeLike,
  updateComment,
  type CommentRow,
  type CommentTarget,
  type Viewer,
} from './comments.repository.ts'
import {
  COMMENTS_PER_MINUTE,
  CONTENT_MAX,
  type Comment,
  type CommentsQuery,
  type CreateCommentBody,
  type ModerationResult,
} from './comments.schema.ts'

export type { Viewer } from './comments.repository.ts'

/** At most this many shown comments are pinned at the top of a course's own comments, and of a video's. */
export const PINNED_MAX = 10
/**
 * How many pinned comments a list reads: the shown ones (at most PINNED_MAX) and room for the hidden or private ones
 * their authors and staff also see, so that none of those pushes a shown one out.
 */
const PINNED_LISTED = 3 * PINNED_MAX
const TOP_MAX = 10

const notFound = () => new AppError(Codes.NotFound, '评论不存在或已删除')

/**
 * Comment text as stored: line breaks unified, control characters dropped, runs of blank lines shortened,
 * trimmed. Null when the result is empty or longer than CONTENT_MAX characters (code points).
 */
export function normaliseContent(raw: string): string | null {
  const text = raw
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200D\u2028\u2029\uFEFF]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  const length = [...text].length
  return length >= 1 && length <= CONTENT_MAX ? text : null
}

/** Whether a course (published) or a video of a published course exists; the course the comment belongs to. */
async function findPublishedTarget(db: DbOrTx, target: CommentTarget) {
  if (target.videoId !== undefined) {
    const courseId = await publishedVideoCourseId(db, target.videoId)
    return courseId === null ? null : { courseId }
  }
  return (await isPublishedCourse(db, target.courseId)) ? { courseId: target.courseId } : null
}

type Names = Map<number, MemberSummary>

/** The nicknames and avatars of the comments' authors and of the members they answer: one query. */
function namesOf(db: DbOrTx, rows: CommentRow[]): Promise<Names> {
  return memberSummariesByIds(
    db,
    rows.flatMap((r) => (r.replyToMemberId === null ? [r.memberId] : [r.memberId, r.replyToMemberId])),
  )
}

/** Presents a comment row (snake_case API fields) with its author's and answered member's names. */
function toComment(row: CommentRow, v: Viewer, names: Names): Comment {
  const author = names.get(row.memberId)
  return {
    id: row.id,
    course_id: row.courseId,
    vid: row.videoId,
    parent_id: row.parentId,
    author: { id: row.memberId, nickname: author?.nickname ?? '', avatar: author?.avatarUrl ?? null },
    content: row.content,
    created_at: row.createdAt.toISOString(),
    like_count: row.likeCount,
    liked: row.liked,
    reply_count: row.parentId === null ? row.replyCount : 0,
    is_private: row.isPrivate,
    status: row.status,
    type: row.type,
    mine: v.memberId !== null && row.memberId === v.memberId,
    reply_to:
      row.replyToId !== null && row.replyToMemberId !== null
        ? {
            id: row.replyToId,
            member_id: row.replyToMemberId,
            nickname: names.get(row.replyToMemberId)?.nickname ?? '',
          }
        : null,
  }
}

/**
 * Comments on courses and videos (spec 7: /comments, /commentDetail, /topComment, /memberComments, /comment,
 * /comment/like, /comment/private and the staff /comment/operate*). Visibility rules are in
 * comments.repository.ts `visibleTo`; every read applies them in SQL.
 */
export function createCommentsService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps

  async function requireTarget(target: CommentTarget) {
    const found = await findPublishedTarget(db, target)
    if (!found)
      throw new AppError(Codes.NotFound, target.videoId !== undefined ? '视频不存在或已下架' : '课程不存在或已下架')
    return found
  }

  /** Applies a moderation change (staff only: the route checks the role) and records who made it. */
  async function moderate(
    staffId: number,
    id: number,
    decide: (current: { status: CommentStatus; type: CommentType }) => { status?: CommentStatus; type?: CommentType },
  ): Promise<ModerationResult> {
    return db.transaction(async (tx) => {
      const row = await findForUpdate(tx, id)
      if (!row) throw notFound()
      const change = decide(row)
      if (change.type && change.type !== 'normal' && row.parentId !== null)
        throw new AppError(Codes.BadRequest, '只能置顶或精选一级评论')
      const pinnedAfter = (change.type ?? row.type) === 'pinned' && (change.status ?? row.status) === 'shown'
      const pinnedBefore = row.type === 'pinned' && row.status === 'shown'
      if (pinnedAfter && !pinnedBefore) {
        if ((await countShownPinned(tx, row.courseId, row.videoId, id)) >= PINNED_MAX)
          throw new AppError(
            Codes.Conflict,
            `${row.videoId !== null ? '这个视频' : '这门课'}已有 ${PINNED_MAX} 条置顶评论，请先取消一条再置顶`,
          )
      }
      const updated = await updateComment(tx, id, { ...change, moderatedBy: staffId, moderatedAt: now() })
      return { id: updated.id, status: updated.status, type: updated.type, is_private: updated.isPrivate }
    })
  }

  return {
    /** One page of a course's or video's top-level comments: pinned first (first page), then the newest. */
    async list(v: Viewer, q: CommentsQuery) {
      const target: CommentTarget = q.vid !== undefined ? { videoId: q.vid } : { courseId: q.course_id! }
      const [pinned, rows] = await Promise.all([
        q.cursor === undefined ? listPinned(db, v, target, PINNED_LISTED) : Promise.resolve([]),
        listTopLevel(db, v, target, q.cursor, q.limit + 1),
      ])
      // An empty answer may mean an unknown course: say so rather than "no comments yet".
      if (pinned.length === 0 && rows.length === 0 && q.cursor === undefined) await requireTarget(target)
      const page = rows.slice(0, q.limit)
      const shown = [...pinned, ...page]
      const names = await namesOf(db, shown)
      return {
        list: shown.map((r) => toComment(r, v, names)),
        next_cursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
      }
    },

    /**
     * One page of a course's own top-level comments in plain time order, newest first, pinned ones in their place
     * (GET /ksxd/course/comments: the Kuaishou landing page). The caller has checked the course.
     */
    async newest(v: Viewer, courseId: number, cursor: number | undefined, limit: number) {
      const rows = await listTopLevel(db, v, { courseId }, cursor, limit + 1, true)
      const page = rows.slice(0, limit)
      const names = await namesOf(db, page)
      return {
        list: page.map((r) => toComment(r, v, names)),
        next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      }
    },

    /** A top-level comment with a page of its replies; asked for by a reply's id, it gives that reply's thread. */
    async thread(v: Viewer, id: number, cursor: number | undefined, limit: number) {
      const found = await findWithThread(db, v, id)
      const asked = found.find((r) => r.id === id)
      if (!asked) throw notFound()
      const root = asked.parentId === null ? asked : found.find((r) => r.id === asked.parentId)
      if (!root) throw notFound()
      const rows = await listReplies(db, v, root.id, cursor, limit + 1)
      const page = rows.slice(0, limit)
      const names = await namesOf(db, [root, ...page])
      return {
        comment: toComment(root, v, names),
        focus_id: id,
        replies: page.map((r) => toComment(r, v, names)),
        next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      }
    },

    /** Pinned, then featured, comments of a course (on the course or its videos). */
    async top(v: Viewer, courseId: number) {
      const rows = await listTopComments(db, v, courseId, TOP_MAX)
      if (rows.length === 0) await requireTarget({ courseId })
      const names = await namesOf(db, rows)
      return { list: rows.map((r) => toComment(r, v, names)) }
    },

    /** The member's own comments and replies, newest first, with where they were written. */
    async mine(memberId: number, cursor: number | undefined, limit: number) {
      const v: Viewer = { memberId, staff: false }
      const rows = await listMemberComments(db, memberId, cursor, limit + 1)
      const page = rows.slice(0, limit)
      const videoIds = page.flatMap((r) => (r.videoId === null ? [] : [r.videoId]))
      const [names, courses, videos] = await Promise.all([
        namesOf(db, page),
        courseTitlesByIds(db, idsOf(page, 'courseId')),
        videoTitlesByIds(db, videoIds),
      ])
      return {
        // A comment's course and video go with it (cascade), so each has its titles.
        list: page.flatMap((r) => {
          const course = courses.get(r.courseId)
          if (!course) return []
          const videoTitle = r.videoId === null ? undefined : videos.get(r.videoId)
          return [
            {
              ...toComment(r, v, names),
              course: { id: r.courseId, title: course.title, cover: course.cover },
              video: r.videoId !== null && videoTitle !== undefined ? { id: r.videoId, title: videoTitle } : null,
            },
          ]
        }),
        next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null,
      }
    },

    /**
     * Posts a comment or a reply. Text only (1–500 characters after trimming, code 465 otherwise); at most 10 a
     * minute per member (429); a reply answers a comment the member can see, is filed under its top-level
     * comment, and is private when what it answers is private.
     */
    async create(v: Viewer & { memberId: number }, body: CreateCommentBody): Promise<Comment> {
      const content = normaliseContent(body.content)
      if (content === null) throw new AppError(Codes.CommentInvalid)
      const at = now()
      const id = await db.transaction(async (tx) => {
        const recent = await lockAndCountRecent(tx, v.memberId, new Date(at.getTime() - 60_000))
        if (recent >= COMMENTS_PER_MINUTE)
          throw new AppError(Codes.TooManyRequests, `评论太频繁了，每分钟最多发 ${COMMENTS_PER_MINUTE} 条，请稍后再试`)

        if (body.reply_to !== undefined) {
          const parent = await findVisible(tx, v, body.reply_to)
          if (!parent) throw new AppError(Codes.NotFound, '要回复的评论不存在或已删除')
          if (
            (body.course_id !== undefined && body.course_id !== parent.courseId) ||
            (body.vid !== undefined && body.vid !== parent.videoId)
          ) {
            throw new AppError(Codes.BadRequest, '回复的评论不属于这门课程或这个视频')
          }
          const rootId = parent.parentId ?? parent.id
          const root =
            parent.parentId === null ? parent : await findVisible(tx, { memberId: null, staff: true }, rootId)
          if (!root) throw new AppError(Codes.NotFound, '要回复的评论不存在或已删除')
          return insertComment(tx, {
            memberId: v.memberId,
            courseId: parent.courseId,
            videoId: parent.videoId,
            parentId: rootId,
            replyToId: parent.id,
            replyToMemberId: parent.memberId,
            threadMemberId: root.memberId,
            content,
            isPrivate: Boolean(body.is_private) || parent.isPrivate || root.isPrivate,
            createdAt: at,
          })
        }

        const target: CommentTarget = body.vid !== undefined ? { videoId: body.vid } : { courseId: body.course_id! }
        const found = await findPublishedTarget(tx, target)
        if (!found)
          throw new AppError(Codes.NotFound, target.videoId !== undefined ? '视频不存在或已下架' : '课程不存在或已下架')
        return insertComment(tx, {
          memberId: v.memberId,
          courseId: found.courseId,
          videoId: body.vid ?? null,
          threadMemberId: v.memberId,
          content,
          isPrivate: Boolean(body.is_private),
          createdAt: at,
        })
      })
      const row = await findVisible(db, v, id)
      return toComment(row!, v, await namesOf(db, [row!]))
    },

    /**
     * Likes or unlikes a comment the member can see: toggles, or sets `like` when given. The like row and the
     * counter change in one transaction, so like_count always equals the rows, however many tap at once.
     */
    async like(v: Viewer & { memberId: number }, id: number, like?: boolean) {
      if (!(await findVisible(db, v, id))) throw notFound()
      return db.transaction(async (tx) => {
        if (like !== false) {
          const added = await addLike(tx, id, v.memberId, now())
          if (added !== null) return { id, liked: true, like_count: added }
          if (like === true) return { id, liked: true, like_count: await currentLikeCount(tx, id) }
        }
        const removed = await removeLike(tx, id, v.memberId)
        return { id, liked: false, like_count: removed ?? (await currentLikeCount(tx, id)) }
      })
    },

    /** Makes a comment private or public again (toggle when `isPrivate` is left out): its author or staff. */
    async setPrivate(v: Viewer & { memberId: number }, id: number, isPrivate?: boolean): Promise<ModerationResult> {
      return db.transaction(async (tx) => {
        // What the member cannot see does not exist for them (404); what they see but did not write is 403.
        if (!(await findVisible(tx, v, id))) throw notFound()
        const row = await findForUpdate(tx, id)
        if (!row) throw notFound()
        if (!v.staff && row.memberId !== v.memberId) throw new AppError(Codes.Forbidden, '只能设置自己的评论')
        const updated = await updateComment(tx, id, { isPrivate: isPrivate ?? !row.isPrivate })
        return { id: updated.id, status: updated.status, type: updated.type, is_private: updated.isPrivate }
      })
    },

    /**
     * A learner reports a comment they can see (not their own), once: the console's reported queue lists it,
     * the most reported first.
     */
    async report(memberId: number, body: CommentReportBody) {
      const found = await findVisible(db, { memberId, staff: false }, body.id)
      if (!found) throw notFound()
      if (found.memberId === memberId) throw new AppError(Codes.BadRequest, '不能举报自己的评论')
      const added = await insertReport(db, {
        commentId: body.id,
        memberId,
        reason: body.reason,
        detail: body.detail || null,
        at: now(),
      })
      if (!added) throw new AppError(Codes.Conflict, '你已举报过这条评论，我们会尽快处理')
    },

    /** Staff: show, hide or delete a comment. */
    operate(staffId: number, id: number, action: 'show' | 'hide' | 'delete') {
      const status: CommentStatus = action === 'show' ? 'shown' : action === 'hide' ? 'hidden' : 'deleted'
      return moderate(staffId, id, () => ({ status }))
    },

    /** Staff: pin or feature a top-level comment; unpin and unfeature undo only their own kind. */
    operateType(staffId: number, id: number, type: 'pin' | 'unpin' | 'feature' | 'unfeature') {
      return moderate(staffId, id, (current) => {
        if (type === 'pin') return { type: 'pinned' }
        if (type === 'feature') return { type: 'featured' }
        const undoes: CommentType = type === 'unpin' ? 'pinned' : 'featured'
        return current.type === undoes ? { type: 'normal' } : {}
      })
    },

    /** Staff: set the type and/or the status in one step (e.g. show and feature a comment from a review queue). */
    operateTypeStatus(staffId: number, id: number, change: { type?: CommentType; status?: CommentStatus }) {
      return moderate(staffId, id, () => change)
    },
  }
}

export type CommentsService = ReturnType<typeof createCommentsService>

/** The operators' moderation queue (moderation.ts). */
export { createCommentModeration, type CommentModerationService } from './moderation.ts'

/** A member's comments and likes: data export and account deletion (issue 10 §5). */
export {
  deleteMemberComments as eraseMemberComments,
  selectMemberComments as commentsForExport,
} from './comments-privacy.repository.ts'
