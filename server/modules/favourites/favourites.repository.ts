import { and, desc, eq, inArray, or } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import { deleteWhere, insertIfAbsent } from '#server/db/rows.ts'
import { ownsCourse } from '#server/modules/access/access.service.ts'
import { courseOfVideo } from '#server/modules/catalogue/catalogue.service.ts'
import { favourites } from '#server/db/schema/favourites.ts'

/** What a favourite points at: a course or a video (favourites.course_id or video_id). */
export type FavouriteTarget = { courseId: number } | { videoId: number }

const isFavourite = (memberId: number, target: FavouriteTarget) =>
  and(
    eq(favourites.memberId, memberId),
    'courseId' in target ? eq(favourites.courseId, target.courseId) : eq(favourites.videoId, target.videoId),
  )

/**
 * Adds a favourite unless there is one; true when a row was added. The caller has checked that the course (of the
 * video) is published; the unique indexes keep one row per member and target however many taps arrive at once.
 */
export async function insertFavourite(db: DbOrTx, memberId: number, target: FavouriteTarget, now: Date) {
  return insertIfAbsent(db, favourites, { memberId, ...target, createdAt: now })
}

/** Removes a favourite; true when there was one. */
export async function deleteFavourite(db: DbOrTx, memberId: number, target: FavouriteTarget) {
  return (await deleteWhere(db, favourites, isFavourite(memberId, target))) > 0
}

/** Whether the member favourited the course or video. */
export async function findFavourite(db: DbOrTx, memberId: number, target: FavouriteTarget) {
  const [row] = await db.select({ id: favourites.id }).from(favourites).where(isFavourite(memberId, target))
  return row !== undefined
}

/**
 * A page of the member's course or video favourites (their target ids), newest first, ids below `before`, each
 * with whether the member owns its course at `at` (the access rule, in the same statement).
 */
export async function listFavourites(
  db: DbOrTx,
  memberId: number,
  kind: 'course' | 'video',
  before: number | undefined,
  limit: number,
  at: Date,
) {
  const rows = await queryPrepared<{ id: number; created_at: Date; target_id: number; owned: boolean }>(
    db,
    favouritePages[kind][before === undefined ? 'first' : 'after'],
    before === undefined ? [memberId, limit, at.toISOString()] : [memberId, limit, at.toISOString(), before],
  )
  return rows.map((r) => ({ favId: r.id, createdAt: r.created_at, targetId: r.target_id, owned: r.owned }))
}

// The favourites page (/center/fav) is hot: one prepared statement per kind and first page or not, newest first,
// which also says whether the member owns each favourite's course (a lesson's: its course's).
const favouritePage = (kind: 'course' | 'video', after: boolean) =>
  preparedText(
    `favourites_page_${kind}${after ? '_after' : ''}`,
    `select f.id, f.created_at, f.${kind}_id as target_id,
        ${ownsCourse('$1', kind === 'course' ? 'f.course_id' : courseOfVideo('f.video_id'), '$3')} as owned
      from favourites f
      where f.member_id = $1 and f.${kind}_id is not null${after ? ' and f.id < $4' : ''}
      order by f.id desc limit $2`,
  )
const favouritePages = {
  course: { first: favouritePage('course', false), after: favouritePage('course', true) },
  video: { first: favouritePage('video', false), after: favouritePage('video', true) },
}

/** Every course and video the member favourited; courses newest first. */
export async function listFavouriteTargets(db: DbOrTx, memberId: number) {
  return db
    .select({ courseId: favourites.courseId, videoId: favourites.videoId })
    .from(favourites)
    .where(eq(favourites.memberId, memberId))
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
