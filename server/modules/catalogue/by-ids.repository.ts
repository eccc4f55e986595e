import { and, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { selectWhereIn } from '#server/db/rows.ts'
import { courses, systemCourseItems, teachers, videos } from '#server/db/schema/catalogue.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import {
  courseCardColumnsSql,
  isPublished as published,
  videoColumnsSql,
  type VideoSqlColumns,
} from './catalogue.repository.ts'
import type { CourseCardSqlRow } from './present.ts'

// Batch reads behind the doors other modules use (catalogue.service.ts): ids in, rows out, one indexed query each.

const courseCards = preparedText(
  'catalogue_course_cards',
  `select ${courseCardColumnsSql} from courses c left join teachers t on t.id = c.teacher_id
  where c.id = any($1::int[]) and c.status = 'published'`,
)

/** Card rows of the published courses among `ids` (any order). One prepared statement. */
export async function findCourseCards(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return queryPrepared<CourseCardSqlRow>(db, courseCards, [ids])
}

const videoCards = preparedText(
  'catalogue_video_cards',
  `select ${videoColumnsSql}, ${courseCardColumnsSql}
  from videos v join courses c on c.id = v.course_id left join teachers t on t.id = c.teacher_id
  where v.id = any($1::int[]) and c.status = 'published'`,
)

/** The videos among `ids` whose course is published, each with its course's card row. One prepared statement. */
export async function findVideoCards(db: DbOrTx, videoIds: number[]) {
  if (videoIds.length === 0) return []
  const rows = await queryPrepared<CourseCardSqlRow & VideoSqlColumns>(db, videoCards, [videoIds])
  return rows.map(({ videoId, videoTitle, durationSeconds, videoIsFree, freeSeconds, ...course }) => ({
    video: { id: videoId, title: videoTitle, durationSeconds, isFree: videoIsFree, freeSeconds },
    course,
  }))
}

/** Whether the course exists and is published. */
export async function findPublishedCourse(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.id, id), published))
  return row ?? null
}

/** The course of a video whose course is published, or null. */
export async function findPublishedVideoCourse(db: DbOrTx, videoId: number) {
  const [row] = await db
    .select({ courseId: videos.courseId })
    .from(videos)
    .innerJoin(courses, eq(courses.id, videos.courseId))
    .where(and(eq(videos.id, videoId), published))
  return row ?? null
}

/** Title and cover of courses of any status. */
export async function findCourseTitles(db: DbOrTx, ids: number[]) {
  return selectWhereIn(db, courses.id, ids, { id: courses.id, title: courses.title, coverUrl: courses.coverUrl })
}

export async function findVideoTitles(db: DbOrTx, ids: number[]) {
  return selectWhereIn(db, videos.id, ids, { id: videos.id, title: videos.title })
}

/** The published, paid courses among `ids` (what a member could buy), with their prices. */
export async function findBuyableCourses(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return db
    .select({ id: courses.id, priceFen: courses.priceFen, originalPriceFen: courses.originalPriceFen })
    .from(courses)
    .where(and(inArray(courses.id, ids), published, eq(courses.isFree, false), sql`${courses.priceFen} > 0`))
}

export async function findTeacherId(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: teachers.id, followerCount: teachers.followerCount })
    .from(teachers)
    .where(eq(teachers.id, id))
  return row ?? null
}

/** The courses the given system courses are made of. */
export async function findSystemCourseMembers(db: DbOrTx, systemCourseIds: number[]) {
  if (systemCourseIds.length === 0) return []
  return db
    .selectDistinct({ courseId: systemCourseItems.courseId })
    .from(systemCourseItems)
    .where(inArray(systemCourseItems.systemCourseId, systemCourseIds))
}
