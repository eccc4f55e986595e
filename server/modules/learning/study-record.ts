import { encodeCursor } from '#server/http/cursor.ts'
import { activeRightsFrom } from '#server/modules/access/access.service.ts'
import type { LessonFacts } from '#server/modules/catalogue/catalogue.service.ts'
import type { LearningContext } from './context.ts'
import { cardsWithProgress, summaryCard, toCourseProgress } from './course-progress.ts'
import { findAlbumReads, listStudyProgressPage, type RecordCursor } from './learning.repository.ts'
import type { PagedQuery } from './learning.schema.ts'
import { decodeTimeIdCursor, percentOf } from './views.ts'

type RecordRow = Awaited<ReturnType<typeof listStudyProgressPage>>[number]

/** The member's study history and the purchased list (/ke1). */
export function createStudyRecord(ctx: LearningContext) {
  const { db, now } = ctx

  /**
   * The member's history rows after `after` whose course is still published, at most `want`, with their video's
   * facts. Rows of unpublished courses are skipped, reading on until the page is full or the history ends.
   */
  async function publishedRecord(memberId: number, after: RecordCursor | undefined, want: number) {
    const kept: { row: RecordRow; lesson: LessonFacts }[] = []
    for (;;) {
      const rows = await listStudyProgressPage(db, memberId, after, want)
      const lessons = await ctx.facts.lessons(rows.map((r) => r.videoId))
      for (const row of rows) {
        const lesson = lessons.get(row.videoId)
        if (lesson?.course.status === 'published' && kept.length < want) kept.push({ row, lesson })
      }
      const last = rows.at(-1)
      if (kept.length >= want || rows.length < want || !last) return kept
      after = { updatedAt: last.updatedKey, videoId: last.videoId }
    }
  }

  return {
    /** The member's study history, newest first, paged. Videos of courses no longer published drop out. */
    async studyRecord(memberId: number, q: PagedQuery) {
      const after = q.cursor ? decodeTimeIdCursor(q.cursor) : undefined
      const rows = await publishedRecord(memberId, after && { updatedAt: after[0], videoId: after[1] }, q.limit + 1)
      const page = rows.slice(0, q.limit)
      const last = page.at(-1)
      return {
        list: page.map(({ row: r, lesson }) => ({
          vid: r.videoId,
          video_title: lesson.title,
          course_id: lesson.course.id,
          course_title: lesson.course.title,
          course_cover: lesson.course.coverUrl,
          course_type: lesson.course.type,
          position: r.position,
          duration: r.duration,
          percent: percentOf(r.position, r.duration, r.finished),
          finished: r.finished,
          updated_at: r.updatedAt,
        })),
        next_cursor: rows.length > q.limit && last ? encodeCursor([last.row.updatedKey, last.row.videoId]) : null,
      }
    },

    /**
     * What the member may watch (/ke1): courses they hold an active entitlement to, and free courses (VIP-free
     * ones too while their VIP runs) they have started, each with their progress; most recently studied (or
     * granted) first.
     */
    async album(memberId: number, q: PagedQuery) {
      // The member's rights and progress in one statement; then the cards, from the catalogue's cached facts (a
      // statement only for those not held, so usually one statement in all).
      const reads = await findAlbumReads(db, memberId, now())
      const { progress } = reads
      const { entitled, vipUntil } = activeRightsFrom(reads.rights)
      const vipActive = vipUntil !== null
      const vipEnds = vipUntil?.toISOString() ?? null
      const rows = await cardsWithProgress(ctx.facts, [...entitled.keys()], progress, {
        free: true,
        vipFree: vipActive,
      })
      const items = rows
        .map((row) => {
          const grant = entitled.get(row.card.id)
          const sortAt =
            row.progress?.lastAt.toISOString() ?? grant?.grantedAt.toISOString() ?? '1970-01-01T00:00:00.000Z'
          const source = grant?.source ?? (row.card.isFree ? ('free' as const) : ('vip' as const))
          const expiresAt = grant ? (grant.expiresAt?.toISOString() ?? null) : source === 'vip' ? vipEnds : null
          return {
            sortAt,
            item: { ...summaryCard(row), source, expires_at: expiresAt, progress: toCourseProgress(row) },
          }
        })
        .sort((a, b) => (a.sortAt === b.sortAt ? b.item.id - a.item.id : a.sortAt < b.sortAt ? 1 : -1))
      let start = 0
      if (q.cursor) {
        const [at, id] = decodeTimeIdCursor(q.cursor)
        start = items.findIndex((x) => x.sortAt < at || (x.sortAt === at && x.item.id < id))
        if (start < 0) start = items.length
      }
      const page = items.slice(start, start + q.limit)
      const last = page.at(-1)
      return {
        list: page.map((x) => x.item),
        next_cursor: start + q.limit < items.length && last ? encodeCursor([last.sortAt, last.item.id]) : null,
      }
    },
  }
}
