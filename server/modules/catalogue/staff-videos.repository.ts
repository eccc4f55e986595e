import { and, count, eq, type AnyColumn, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven } from '#server/db/rows.ts'
import { containsGrams, orderOf, type ListSort, type ListWindow } from '#server/db/list.ts'
import { chapters, courses, videos } from '#server/db/schema/catalogue.ts'

/**
 * The operators' video list (the console's media screen). `media` is another module's condition on a video's id
 * (the media state, written by the media module over its own table: media.service.ts `mediaStateCondition`), so
 * the filter, the count and the page stay one statement each without this module naming that table.
 */
export interface StaffVideoFilter {
  courseId?: number
  videoId?: number
  title?: string
  media?: (videoId: AnyColumn) => SQL
}

type StaffVideoSortKey = 'id' | 'title' | 'duration'

const sortColumns = { id: videos.id, title: videos.title, duration: videos.durationSeconds } as const

function conditions(f: StaffVideoFilter) {
  return and(
    eqIfGiven(videos.courseId, f.courseId),
    eqIfGiven(videos.id, f.videoId),
    f.title ? containsGrams(videos.title, f.title) : undefined,
    f.media?.(videos.id),
  )
}

/** One page of the videos the filter matches, each with its course's and chapter's title (ties by id). */
export async function searchStaffVideos(
  db: DbOrTx,
  f: StaffVideoFilter,
  sort: ListSort<StaffVideoSortKey>,
  window: ListWindow,
) {
  return db
    .select({
      id: videos.id,
      title: videos.title,
      courseId: videos.courseId,
      courseTitle: courses.title,
      chapterId: videos.chapterId,
      chapterTitle: chapters.title,
      durationSeconds: videos.durationSeconds,
      isFree: videos.isFree,
      freeSeconds: videos.freeSeconds,
    })
    .from(videos)
    .innerJoin(courses, eq(courses.id, videos.courseId))
    .leftJoin(chapters, eq(chapters.id, videos.chapterId))
    .where(conditions(f))
    .orderBy(...orderOf(sortColumns, sort, videos.id))
    .offset(window.offset)
    .limit(window.limit)
}

/** How many videos the filter matches. */
export async function countStaffVideos(db: DbOrTx, f: StaffVideoFilter) {
  const [row] = await db.select({ n: count() }).from(videos).where(conditions(f))
  return row?.n ?? 0
}
