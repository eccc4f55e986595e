import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { ownedCourseIds } from '#server/modules/access/access.service.ts'
import {
  buyableCoursesByIds,
  isPublishedCourse,
  publishedVideoCourseId,
  toCourseCard,
  videoCardsByIds,
  type CatalogueFacts,
} from '#server/modules/catalogue/catalogue.service.ts'
import {
  deleteFavourite,
  deleteFavourites,
  findFavourite,
  insertFavourite,
  listFavourites,
  listFavouriteTargets,
} from './favourites.repository.ts'
import type { FavCalc, FavItem, FavList, FavListQuery } from './favourites.schema.ts'

const courseGone = () => new AppError(Codes.NotFound, '课程不存在或已下架')
const videoGone = () => new AppError(Codes.NotFound, '视频不存在或已下架')

/**
 * The favourited courses a member could buy now: published, paid and not owned, newest favourite first, with
 * their prices in fen (the favourites checkout, server/modules/orders).
 */
async function listBuyableFavourites(db: DbOrTx, memberId: number, now: Date) {
  const courseIds = (await listFavouriteTargets(db, memberId)).flatMap((f) => (f.courseId === null ? [] : [f.courseId]))
  if (courseIds.length === 0) return []
  const buyable = await buyableCoursesByIds(db, courseIds)
  const candidates = courseIds.filter((id) => buyable.has(id))
  const owned = await ownedCourseIds(db, memberId, candidates, now)
  return candidates.filter((id) => !owned.has(id)).map((id) => buyable.get(id)!)
}

/** The ids of the courses and videos a member favourited (what their recommendations start from). */
export async function favouriteTargetIds(db: DbOrTx, memberId: number) {
  const rows = await listFavouriteTargets(db, memberId)
  return {
    courseIds: rows.flatMap((r) => (r.courseId === null ? [] : [r.courseId])),
    videoIds: rows.flatMap((r) => (r.videoId === null ? [] : [r.videoId])),
  }
}

type FavRow = { favId: number; createdAt: Date; targetId: number; owned: boolean }

/**
 * The catalogue's cards of favourited targets of one kind, by target id, while they are published: a course (from
 * the catalogue's cached facts), or a video with its course.
 */
async function favouriteCards(
  db: DbOrTx,
  facts: Pick<CatalogueFacts, 'cards'>,
  kind: 'course' | 'video',
  ids: number[],
): Promise<Map<number, Pick<FavItem, 'course' | 'video'>>> {
  if (kind === 'course')
    return new Map([...(await facts.cards(ids))].map(([id, row]) => [id, { course: toCourseCard(row), video: null }]))
  return videoCardsByIds(db, ids)
}

/**
 * Up to `want` favourites, newest first, below `before`, whose course is published: the page is filled from
 * further rows when some point at unpublished courses, so a page and its cursor are as if the list held only
 * published ones. Usually one statement: the page of favourites (with ownership); course cards come from the
 * catalogue's cache, lesson cards from one more statement.
 */
async function publishedPage(
  list: (before: number | undefined, limit: number) => Promise<FavRow[]>,
  present: (rows: FavRow[]) => Promise<(FavItem | null)[]>,
  before: number | undefined,
  want: number,
) {
  const items: { favId: number; item: FavItem }[] = []
  for (let after = before; ;) {
    const rows = await list(after, want)
    const shown = await present(rows)
    rows.forEach((r, i) => {
      const item = shown[i]
      if (item && items.length < want) items.push({ favId: r.favId, item })
    })
    if (items.length >= want || rows.length < want) return items
    after = rows.at(-1)!.favId
  }
}

/**
 * Favourite courses and videos (spec: /course/fav, /video/fav, /center/fav, /fav/calc, /fav/batchCancel). A
 * toggle first tries to add and, when the row is already there, removes it: two quick taps cancel out instead
 * of failing, and the unique indexes keep one row per member and target.
 */
export function createFavouritesService(deps: { db: Db; now: () => Date; facts: Pick<CatalogueFacts, 'cards'> }) {
  const { db, now, facts } = deps

  return {
    /** Favourites the course, or un-favourites it when it already is; answers the new state. */
    async toggleCourse(memberId: number, courseId: number) {
      const published = await isPublishedCourse(db, courseId)
      if (published && (await insertFavourite(db, memberId, { courseId }, now())))
        return { course_id: courseId, favourited: true }
      // Nothing added: favourited already (remove it), or the course is unknown or unpublished.
      if (await deleteFavourite(db, memberId, { courseId })) return { course_id: courseId, favourited: false }
      throw courseGone()
    },

    /** The same for a video. */
    async toggleVideo(memberId: number, videoId: number) {
      const published = (await publishedVideoCourseId(db, videoId)) !== null
      if (published && (await insertFavourite(db, memberId, { videoId }, now())))
        return { vid: videoId, favourited: true }
      if (await deleteFavourite(db, memberId, { videoId })) return { vid: videoId, favourited: false }
      throw videoGone()
    },

    /** Whether the member (null: anonymous, always false) favourited a published course. */
    async courseState(memberId: number | null, courseId: number) {
      const [published, favourited] = await Promise.all([
        isPublishedCourse(db, courseId),
        memberId === null ? false : findFavourite(db, memberId, { courseId }),
      ])
      if (!published) throw courseGone()
      return { course_id: courseId, favourited }
    },

    async videoState(memberId: number | null, videoId: number) {
      const [courseId, favourited] = await Promise.all([
        publishedVideoCourseId(db, videoId),
        memberId === null ? false : findFavourite(db, memberId, { videoId }),
      ])
      if (courseId === null) throw videoGone()
      return { vid: videoId, favourited }
    },

    /** A page of the member's favourites of one kind, newest first, as course cards (and videos). */
    async list(memberId: number, q: FavListQuery): Promise<FavList> {
      const rows = await publishedPage(
        // Which of their courses the member owns comes with the page: the cards need no second request for it.
        (before, limit) => listFavourites(db, memberId, q.type, before, limit, now()),
        async (page) => {
          const targetIds = page.map((r) => r.targetId)
          const cards = await favouriteCards(db, facts, q.type, targetIds)
          return page.map((r) => {
            const card = cards.get(r.targetId)
            if (!card) return null
            const { course, video } = card
            return { fav_id: r.favId, created_at: r.createdAt.toISOString(), course, video, owned: r.owned }
          })
        },
        q.cursor,
        q.limit + 1,
      )
      const page = rows.slice(0, q.limit)
      return {
        type: q.type,
        list: page.map((r) => r.item),
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

/** A member's favourites: data export and account deletion (issue 10 §5). */
export {
  deleteMemberFavourites as eraseMemberFavourites,
  selectMemberFavourites as favouritesForExport,
} from './favourites-privacy.repository.ts'
