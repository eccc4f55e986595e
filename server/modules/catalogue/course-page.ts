import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { CourseDetail, CourseType } from '#shared/api/catalogue.ts'
import { findCourseTree, type CourseTreeRow } from './catalogue.repository.ts'
import { courseBasics, iso, presentCourseCard, toTeacher } from './present.ts'

// The course page (GET /course): the course's tree as one body, cached by catalogue.service.ts, and its live status.

type VideoRow = CourseTreeRow['videos'][number]
const toVideo = (v: VideoRow) => ({
  id: v.id,
  title: v.title,
  duration: v.durationSeconds,
  is_free: v.isFree,
  free_seconds: v.freeSeconds,
})

/** The course page's data without the parts that depend on the time of the request. */
export type CourseBody = Omit<CourseDetail, 'live_status'>

function toCourseBody(row: CourseTreeRow): CourseBody {
  const chapters = row.chapters.map((c) => ({ id: c.id, title: c.title, videos: c.videos.map(toVideo) }))
  if (row.videos.length > 0)
    chapters.push({ id: 0, title: chapters.length > 0 ? '其他视频' : '课程视频', videos: row.videos.map(toVideo) })
  const all = chapters.flatMap((c) => c.videos)
  return {
    ...courseBasics(row),
    intro: row.intro,
    points_price: row.pointsPrice,
    level: row.level,
    tags: row.tags,
    category_id: row.category.id,
    category_name: row.category.name,
    live_starts_at: iso(row.liveStartsAt),
    live_ends_at: iso(row.liveEndsAt),
    video_count: all.length,
    duration_seconds: all.reduce((sum, v) => sum + v.duration, 0),
    teacher: row.teacher ? toTeacher(row.teacher) : null,
    chapters,
    sub_courses: row.systemItems.filter((i) => i.course.status === 'published').map((i) => presentCourseCard(i.course)),
  }
}

/** Upcoming, live or ended, for live courses; null for the others. */
export function liveStatus(
  course: { type: CourseType; live_starts_at: string | null; live_ends_at: string | null },
  now: Date,
) {
  if (course.type !== 'live' || !course.live_starts_at) return null
  const t = now.getTime()
  if (t < Date.parse(course.live_starts_at)) return 'upcoming' as const
  if (course.live_ends_at && t >= Date.parse(course.live_ends_at)) return 'ended' as const
  return 'live' as const
}

/** The course page data of a published course, or a 404 AppError. */
export async function getCourseDetail(db: Db, id: number): Promise<CourseBody> {
  const row = await findCourseTree(db, id)
  if (!row) throw new AppError(Codes.NotFound, '课程不存在或已下架')
  return toCourseBody(row)
}
