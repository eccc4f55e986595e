import { and, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { courses, teachers, videos } from '#server/db/schema/catalogue.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import { courseCardSelect, courseTeacherJoin, isPublished, ownedBy } from '#server/modules/recommend/course-sql.ts'

/**
 * Adds the favourite if the course is published and not favourited yet; true when a row was added. One
 * statement: the course check and the insert cannot be separated by a concurrent change.
 */
export async function insertCourseFavourite(db: DbOrTx, memberId: number, courseId: number, now: Date) {
  const rows = await db.execute(sql`
    insert into favourites (member_id, course_id, created_at)
    select ${memberId}, c.id, ${now.toISOString()}::timestamptz from courses c where c.id = ${courseId} and c.status = 'published'
    on conflict do nothing
    returning id`)
  return rows.rows.length > 0
}

/** Adds a video favourite when the video's course is published; true when a row was added. */
export async function insertVideoFavourite(db: DbOrTx, memberId: number, videoId: number, now: Date) {
  const rows = await db.execute(sql`
    insert into favourites (member_id, video_id, created_at)
    select ${memberId}, v.id, ${now.toISOString()}::timestamptz
    from videos v join courses c on c.id = v.course_id
    where v.id = ${videoId} and c.status = 'published'
    on conflict do nothing
    returning id`)
  return rows.rows.length > 0
}

/** Removes a course favourite; true when there was one. */
export async function deleteCourseFavourite(db: DbOrTx, memberId: number, courseId: number) {
  const rows = await db
    .delete(favourites)
    .where(and(eq(favourites.memberId, memberId), eq(favourites.courseId, courseId)))
    .returning({ id: favourites.id })
  return rows.length > 0
}

export async function deleteVideoFavourite(db: DbOrTx, memberId: number, videoId: number) {
  const rows = await db
    .delete(favourites)
    .where(and(eq(favourites.memberId, memberId), eq(favourites.videoId, videoId)))
    .returning({ id: favourites.id })
  return rows.length > 0
}

/** Whether the member favourited the course, and whether the course is published (null: no such course). */
export async function findCourseFavState(db: DbOrTx, memberId: number | null, courseId: number) {
  const [row] = await db
    .select({
      favourited:
        memberId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (select 1 from favourites f where f.member_id = ${memberId} and f.course_id = ${courseId})`,
    })
    .from(courses)
    .where(and(eq(courses.id, courseId), isPublished))
  return row ?? null
}

export async function findVideoFavState(db: DbOrTx, memberId: number | null, videoId: number) {
  const [row] = await db
    .select({
      favourited:
        memberId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (select 1 from favourites f where f.member_id = ${memberId} and f.video_id = ${videoId})`,
    })
    .from(videos)
    .innerJoin(courses, eq(courses.id, videos.courseId))
    .where(and(eq(videos.id, videoId), isPublished))
  return row ?? null
}

/** A page of the member's favourite courses, newest first, ids below `before`. */
export async function listFavouriteCourses(db: DbOrTx, memberId: number, before: number | undefined, limit: number) {
  return db
    .select({ favId: favourites.id, createdAt: favourites.createdAt, course: courseCardSelect })
    .from(favourites)
    .innerJoin(courses, eq(courses.id, favourites.courseId))
    .leftJoin(teachers, courseTeacherJoin)
    .where(
      and(
        eq(favourites.memberId, memberId),
        isNotNull(favourites.courseId),
        isPublished,
        before === undefined ? undefined : lt(favourites.id, before),
      ),
    )
    .orderBy(desc(favourites.id))
    .limit(limit)
}

/** A page of the member's favourite videos with their courses, newest first. */
export async function listFavouriteVideos(db: DbOrTx, memberId: number, before: number | undefined, limit: number) {
  return db
    .select({
      favId: favourites.id,
      createdAt: favourites.createdAt,
      course: courseCardSelect,
      video: {
        id: videos.id,
        title: videos.title,
        durationSeconds: videos.durationSeconds,
        isFree: videos.isFree,
        freeSeconds: videos.freeSeconds,
      },
    })
    .from(favourites)
    .innerJoin(videos, eq(videos.id, favourites.videoId))
    .innerJoin(courses, eq(courses.id, videos.courseId))
    .leftJoin(teachers, courseTeacherJoin)
    .where(
      and(
        eq(favourites.memberId, memberId),
        isNotNull(favourites.videoId),
        isPublished,
        before === undefined ? undefined : lt(favourites.id, before),
      ),
    )
    .orderBy(desc(favourites.id))
    .limit(limit)
}

/** The favourited courses a member could buy: published, paid and not owned now. */
export async function listBuyableFavourites(db: DbOrTx, memberId: number, now: Date) {
  return db
    .select({ id: courses.id, priceFen: courses.priceFen, originalPriceFen: courses.originalPriceFen })
    .from(favourites)
    .innerJoin(courses, eq(courses.id, favourites.courseId))
    .where(
      and(
        eq(favourites.memberId, memberId),
        isPublished,
        eq(courses.isFree, false),
        sql`${courses.priceFen} > 0`,
        sql`not ${ownedBy(memberId, courses.id, now)}`,
      ),
    )
    .orderBy(desc(favourites.id))
}

/** Deletes the member's favourites among the given courses and videos; how many of each went. */
export async function deleteFavourites(db: DbOrTx, memberId: number, courseIds: number[], videoIds: number[]) {
  const targets = [
    courseIds.length > 0 ? inArray(favourites.courseId, courseIds) : undefined,
    videoIds.length > 0 ? inArray(favourites.videoId, videoIds) : undefined,
  ].filter((c) => c !== undefined)
  const rows = await db
    .delete(favourites)
    .where(and(eq(favourites.memberId, memberId), or(...targets)))
    .returning({ courseId: favourites.courseId })
  const courses = rows.filter((r) => r.courseId !== null).length
  return { courses, videos: rows.length - courses }
}
