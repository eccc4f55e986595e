import { and, asc, eq, inArray, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { courses, systemCourseItems, videos } from '#server/db/schema/catalogue.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import type { CourseType } from '#shared/api/catalogue.ts'
import { courseCardColumnsSql, videoColumnsSql, type VideoSqlColumns } from './catalogue.repository.ts'
import type { CourseCardSqlRow } from './present.ts'

// Small batched reads and writes of courses and videos that other modules need (access, learning, media): they
// get them through catalogue.service.ts instead of joining these tables themselves.

/**
 * For a statement another module composes: a CTE `ownership_courses(course_id)` of the courses in the relation
 * `payable_courses(course_id)` and the system courses containing them (what `rightCourseIds` gives from the facts).
 */
export const ownershipCoursesCte = sql`
    ownership_courses as (
      select course_id from payable_courses
      union select s.system_course_id from ${systemCourseItems} s where s.course_id in (select course_id from payable_courses)
    )`

/**
 * For a statement another module writes as text: the ids a right to which owns the course `course` (an SQL
 * expression, such as `f.course_id`), as the rows of a subquery: the course itself and each system course containing
 * it.
 */
export function rightIdsOfCourseSql(course: string): string {
  return `select ${course} union all
    select cat_s.system_course_id from system_course_items cat_s where cat_s.course_id = ${course}`
}

/** For a statement another module writes as text: the course of the video `video` (an SQL expression). */
export function courseOfVideoSql(video: string): string {
  return `(select cat_v.course_id from videos cat_v where cat_v.id = ${video})`
}

/** A course's facts in SQL text over `courses c`, named as `CourseFacts` names them. */
const courseFactsSql = `c.id, c.type, c.status, c.title, c.cover_url as "coverUrl", c.is_free as "isFree",
  c.vip_free as "vipFree", coalesce((select array_agg(s.system_course_id order by s.system_course_id)
    from system_course_items s where s.course_id = c.id), '{}'::int[]) as "systemCourseIds"`

/** What decides access to a course (any status): free flags, type, status, and the system courses containing it. */
export interface CourseFacts {
  id: number
  type: CourseType
  status: 'draft' | 'published' | 'hidden'
  title: string
  coverUrl: string
  isFree: boolean
  vipFree: boolean
  /** The system courses this course is part of (an entitlement to one of them opens it). */
  systemCourseIds: number[]
}

const courseFacts = preparedText(
  'catalogue_course_facts',
  `select ${courseFactsSql} from courses c where c.id = any($1::int[])`,
)

/** Courses by id (any status) with what decides access to them; one prepared statement. */
export async function findCourseFacts(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return []
  return queryPrepared<CourseFacts>(db, courseFacts, [ids])
}

const lessonFacts = preparedText(
  'catalogue_lesson_facts',
  `select ${videoColumnsSql}, v.course_id as "courseId", ${courseFactsSql}
  from videos v join courses c on c.id = v.course_id where v.id = any($1::int[])`,
)

/** Videos by id with their course's facts (any status); one prepared statement. */
export async function findLessonFacts(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return []
  const rows = await queryPrepared<CourseFacts & VideoSqlColumns & { courseId: number }>(db, lessonFacts, [ids])
  return rows.map(({ videoId, courseId, videoTitle, durationSeconds, videoIsFree, freeSeconds, ...course }) => ({
    id: videoId,
    courseId,
    title: videoTitle,
    durationSeconds,
    isFree: videoIsFree,
    freeSeconds,
    course,
  }))
}

const courseCardsWithVideoCount = preparedText(
  'catalogue_course_cards_video_count',
  `select ${courseCardColumnsSql},
    (select count(*)::int from videos v where v.course_id = c.id) as "videoCount"
  from courses c left join teachers t on t.id = c.teacher_id
  where c.status = 'published' and c.id = any($1::int[])`,
)

/** Published courses of `ids` as card rows with their teacher's name and number of videos; one prepared statement. */
export async function findCourseCardsWithVideoCount(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return []
  return queryPrepared<CourseCardSqlRow & { videoCount: number }>(db, courseCardsWithVideoCount, [ids])
}

/**
 * Published system courses whose id is in `ids` or that contain one of `containing`, by id.
 */
export async function findSystemCourseIds(db: DbOrTx, ids: readonly number[], containing: readonly number[]) {
  if (ids.length === 0 && containing.length === 0) return []
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(
      and(
        eq(courses.type, 'system'),
        eq(courses.status, 'published'),
        or(
          ids.length > 0 ? inArray(courses.id, [...ids]) : undefined,
          containing.length > 0
            ? sql`exists (select 1 from ${systemCourseItems} s
                where s.system_course_id = ${courses.id} and s.course_id in (${sql.join(
                  containing.map((id) => sql`${id}::int`),
                  sql`, `,
                )}))`
            : undefined,
        ),
      ),
    )
    .orderBy(asc(courses.id))
  return rows.map((r) => r.id)
}

/** The first video of a course in lesson order (sort, then id), or null. */
export async function findFirstLessonId(db: DbOrTx, courseId: number) {
  const [row] = await db
    .select({ id: videos.id })
    .from(videos)
    .where(eq(videos.courseId, courseId))
    .orderBy(asc(videos.sort), asc(videos.id))
    .limit(1)
  return row?.id ?? null
}

/** The stream URL of a published live course (null when none is set or the course is not one). */
export async function findLivePullUrl(db: DbOrTx, courseId: number) {
  const [row] = await db
    .select({ url: courses.livePullUrl })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.type, 'live'), eq(courses.status, 'published')))
    .limit(1)
  return row?.url ?? null
}

/** A published course's own consultation contact (WeCom QR image, WeCom link); null when there is no such course. */
export async function findConsultContact(db: DbOrTx, courseId: number) {
  const [row] = await db
    .select({ qr: courses.consultQr, url: courses.consultUrl })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.status, 'published')))
    .limit(1)
  return row ?? null
}

/** Sets a video's length (seconds) once its media is known; the ids of the courses whose pages show it. */
export async function updateLessonDuration(db: DbOrTx, videoId: number, seconds: number) {
  const rows = await db
    .update(videos)
    .set({ durationSeconds: seconds })
    .where(eq(videos.id, videoId))
    .returning({ courseId: videos.courseId })
  return rows.map((r) => r.courseId)
}

/** Every video with its free flags and its course's, for giving demo media to videos. */
export async function listLessonFreeFlags(db: DbOrTx) {
  return db
    .select({ id: videos.id, freeSeconds: videos.freeSeconds, videoFree: videos.isFree, courseFree: courses.isFree })
    .from(videos)
    .innerJoin(courses, eq(courses.id, videos.courseId))
}

/** Gives videos a clip's length; a preview then ends halfway through it at the latest. */
export async function fitLessonsToClip(db: DbOrTx, ids: readonly number[], clipSeconds: number) {
  if (ids.length === 0) return []
  const rows = await db
    .update(videos)
    .set({
      durationSeconds: Math.round(clipSeconds),
      freeSeconds: sql`case when ${videos.freeSeconds} > 0 then least(${videos.freeSeconds}, ${Math.floor(clipSeconds / 2)}) else 0 end`,
    })
    .where(inArray(videos.id, [...ids]))
    .returning({ courseId: videos.courseId })
  return [...new Set(rows.map((r) => r.courseId))]
}
