import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { toCourseCard } from '#server/modules/catalogue/catalogue.service.ts'
import {
  deleteCourseFavourite,
  deleteFavourites,
  deleteVideoFavourite,
  findCourseFavState,
  findVideoFavState,
  insertCourseFavourite,
  insertVideoFavourite,
  listBuyableFavourites,
  listFavouriteCourses,
  listFavouriteVideos,
} from './favourites.repository.ts'
import type { FavCalc, FavList, FavListQuery } from './favourites.schema.ts'

const courseGone = () => new AppError(Codes.NotFound, '课程不存在或已下架')
const videoGone = () => new AppError(Codes.NotFound, '视频不存在或已下架')

/**
 * Favourite courses and videos (spec: /course/fav, /video/fav, /center/fav, /fav/calc, /fav/batchCancel). A
 * toggle first tries to add and, when the row is already there, removes it: two quick taps cancel out instead
 * of failing, and the unique indexes keep one row per member and target.
 */
export function createFavouritesService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps

  return {
    /** Favourites the course, or un-favourites it when it already is; answers the new state. */
    async toggleCourse(memberId: number, courseId: number) {
      if (await insertCourseFavourite(db, memberId, courseId, now())) return { course_id: courseId, favourited: true }
      // Nothing added: favourited already (remove it), or the course is unknown or unpublished.
      if (await deleteCourseFavourite(db, memberId, courseId)) return { course_id: courseId, favourited: false }
      throw courseGone()
    },

    /** The same for a video. */
    async toggleVideo(memberId: number, videoId: number) {
      if (await insertVideoFavourite(db, memberId, videoId, now())) return { vid: videoId, favourited: true }
      if (await deleteVideoFavourite(db, memberId, videoId)) return { vid: videoId, favourited: false }
      throw videoGone()
    },

    /** Whether the member (null: anonymous, always false) favourited a published course. */
    async courseState(memberId: number | null, courseId: number) {
      const row = await findCourseFavState(db, memberId, courseId)
      if (!row) throw courseGone()
      return { course_id: courseId, favourited: row.favourited }
    },

    async videoState(memberId: number | null, videoId: number) {
      const row = await findVideoFavState(db, memberId, videoId)
      if (!row) throw videoGone()
      return { vid: videoId, favourited: row.favourited }
    },

    /** A page of the member's favourites of one kind, newest first, as course cards (and videos). */
    async list(memberId: number, q: FavListQuery): Promise<FavList> {
      const rows =
        q.type === 'course'
          ? (await listFavouriteCourses(db, memberId, q.cursor, q.limit + 1)).map((r) => ({ ...r, video: null }))
          : await listFavouriteVideos(db, memberId, q.cursor, q.limit + 1)
      const page = rows.slice(0, q.limit)
      return {
        type: q.type,
        list: page.map((r) => ({
          fav_id: r.favId,
          created_at: r.createdAt.toISOString(),
          course: toCourseCard(r.course),
          video: r.video
            ? {
                id: r.video.id,
                title: r.video.title,
                duration: r.video.durationSeconds,
                is_free: r.video.isFree,
                free_seconds: r.video.freeSeconds,
              }
            : null,
        })),
        next_cursor: rows.length > q.limit ? String(page.at(-1)!.favId) : null,
      }
    },

    /** How many favourited paid courses the member does not own yet, and what they cost together (fen). */
    async calc(memberId: number): Promise<FavCalc> {
      const rows = await listBuyableFavourites(db, memberId, now())
      return {
        count: rows.length,
        total_price_fen: rows.reduce((sum, r) => sum + r.priceFen, 0),
        original_total_fen: rows.reduce((sum, r) => sum + Math.max(r.originalPriceFen ?? r.priceFen, r.priceFen), 0),
        course_ids: rows.map((r) => r.id),
      }
    },

    /** Removes the member's favourites among these courses and videos (ids that are not favourites are ignored). */
    async batchCancel(memberId: number, courseIds: number[] = [], videoIds: number[] = []) {
      const removed = await deleteFavourites(db, memberId, [...new Set(courseIds)], [...new Set(videoIds)])
      return { cancelled_courses: removed.courses, cancelled_videos: removed.videos }
    },
  }
}

export type FavouritesService = ReturnType<typeof createFavouritesService>
