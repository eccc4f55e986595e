import type { Db } from '#server/db/database.ts'
import { publicCache } from '#server/http/public-cache.ts'
import { presentCourseCard as toCourseCard } from './present.ts'
import { listPopularCourses, listRecommendedCourses, type Seeds } from './recommend.repository.ts'
import type { CourseCardList } from './recommend.schema.ts'

/** How long the anonymous (popular) list is shared between requests. */
const POPULAR_CACHE_MS = 5_000
const POPULAR_MAX = 30
/** How many recently watched courses count: enough to show a taste, few enough to stay cheap. */
const RECENT_WATCHED = 50
/** Extra courses read with each page, so the ones the member owns can be dropped without reading again. */
const OWNED_SLACK = 10

/** What recommendations need from other modules (wired by server/services.ts; the catalogue imports none). */
export interface RecommendSources {
  /** The courses of the member's most recently watched videos (learning). */
  recentlyWatched: (memberId: number, limit: number) => Promise<number[]>
  /** The courses and videos the member favourited (favourites). */
  favourites: (memberId: number) => Promise<{ courseIds: number[]; videoIds: number[] }>
  /** Of these courses, those the member owns now (access). */
  owned: (memberId: number, courseIds: number[]) => Promise<Set<number>>
}

/**
 * Recommendations (spec: /foryou, /center/recommend, /fav/recommend): courses in the categories of what the
 * member watched and favourited, not owned, popular first; the popular courses for anonymous visitors.
 */
export function createRecommendService(deps: { db: Db; sources: RecommendSources; cacheMs?: number }) {
  const { db, sources } = deps
  const popularCache = publicCache({
    max: 1,
    ttlMs: deps.cacheMs ?? POPULAR_CACHE_MS,
    load: async (_: 'popular') => (await listPopularCourses(db, POPULAR_MAX)).map(toCourseCard),
  })

  async function popular(limit: number): Promise<CourseCardList> {
    const list = await popularCache.get('popular')
    return { list: list.slice(0, limit), personalised: false }
  }

  async function recommend(memberId: number, watched: boolean, limit: number): Promise<CourseCardList> {
    const [recent, favourites] = await Promise.all([
      watched ? sources.recentlyWatched(memberId, RECENT_WATCHED) : Promise.resolve([]),
      sources.favourites(memberId),
    ])
    const seeds: Seeds = { courseIds: [...recent, ...favourites.courseIds], videoIds: favourites.videoIds }
    const picked: Awaited<ReturnType<typeof listRecommendedCourses>> = []
    // Ranked reads with a little slack; owned courses are dropped and, rarely, the next rows read.
    for (let after: Parameters<typeof listRecommendedCourses>[2]; ;) {
      const rows = await listRecommendedCourses(db, seeds, after, limit + OWNED_SLACK)
      const owned = await sources.owned(
        memberId,
        rows.map((r) => r.id),
      )
      picked.push(...rows.filter((r) => !owned.has(r.id)))
      const last = rows.at(-1)
      if (picked.length >= limit || rows.length < limit + OWNED_SLACK || !last) break
      after = { score: last.score, studentCount: last.studentCount, id: last.id }
    }
    const list = picked.slice(0, limit)
    return { list: list.map(toCourseCard), personalised: list.some((r) => r.score > 0) }
  }

  return {
    /** For you: from what the member watched and favourited; popular courses for anonymous visitors. */
    forYou(memberId: number | null, limit: number): Promise<CourseCardList> {
      if (memberId === null) return popular(limit)
      return recommend(memberId, true, limit)
    },
    /** Related to the member's favourites (same categories, not favourited, not owned), then popular. */
    favouriteRelated(memberId: number | null, limit: number): Promise<CourseCardList> {
      if (memberId === null) return popular(limit)
      return recommend(memberId, false, limit)
    },
  }
}
