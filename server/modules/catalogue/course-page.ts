import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { CourseDetail, CourseType } from '#shared/api/catalogue.ts'
import { findCourseTree, type CourseTreeRow } from './catalogue.repository.ts'
import { iso } from './present.ts'

// The course page (GET /course): the course's tree as one body, cached by catalogue.service.ts, and its live status.

/** The course page's data without the parts that depend on the time of the request. */
export type CourseBody = Omit<CourseDetail, 'live_status'>

function toCourseBody(row: CourseTreeRow): CourseBody {
  const chapters = [...row.chapters]
  if (row.loose_videos.length > 0)
    chapters.push({ id: 0, title: chapters.length > 0 ? '其他视频' : '课程视频', videos: row.loose_videos })
  const all = chapters.flatMap((c) => c.videos)
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    subtitle: row.subtitle,
    cover: row.cover_url,
    price_fen: row.price_fen,
    original_price_fen: row.original_price_fen,
    is_free: row.is_free,
    vip_free: row.vip_free,
    student_count: row.student_count,
    intro: row.intro,
    points_price: row.points_price,
    level: row.level,
    tags: row.tags,
    category_id: row.category_id,
    category_name: row.category_name,
    live_starts_at: iso(row.live_starts_at),
    live_ends_at: iso(row.live_ends_at),
    video_count: all.length,
    duration_seconds: all.reduce((sum, v) => sum + v.duration, 0),
    teacher: row.teacher,
    chapters,
    sub_courses: row.sub_courses,
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
