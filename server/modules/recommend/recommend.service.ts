import type { Db } from '#server/db/database.ts'
import { publicCache } from '#server/http/public-cache.ts'
import { toCourseCard } from '#server/modules/catalogue/catalogue.service.ts'
import { listPopularCourses, listRecommendedCourses, type Interests } from './recommend.repository.ts'
import type { CourseCardList } from './recommend.schema.ts'

/** How long the anonymous (popular) list is shared between requests. */
const POPULAR_CACHE_MS = 5_000
const POPULAR_MAX = 30

/**
 * Recommendations (spec: /foryou, /center/recommend, /fav/recommend): courses in the categories of what the
 * member watched and favourited, not owned, popular first; the popular courses for anonymous visitors.
 */
export function createRecommendService(deps: { db: Db; now: () => Date; cacheMs?: number }) {
  const { db, now } = deps
  const popularCache = publicCache({
    max: 1,
    ttlMs: deps.cacheMs ?? POPULAR_CACHE_MS,
    load: async (_: 'popular') => (await listPopularCourses(db, POPULAR_MAX)).map(toCourseCard),
  })

  async function popular(limit: number): Promise<CourseCardList> {
    const list = await popularCache.get('popular')
    return { list: list.slice(0, limit), personalised: false }
  }

  async function recommend(interests: Interests, limit: number): Promise<CourseCardList> {
    const rows = await listRecommendedCourses(db, interests, now(), limit)
    return { list: rows.map(toCourseCard), personalised: rows.some((r) => r.score > 0) }
  }

  return {
    /** For you: from what the member watched and favourited; popular courses for anonymous visitors. */
    forYou(memberId: number | null, limit: number): Promise<CourseCardList> {
      if (memberId === null) return popular(limit)
      return recommend({ memberId, watched: true, favourites: true }, limit)
    },
    /** Related to the member's favourites (same categories, not favourited, not owned), then popular. */
    favouriteRelated(memberId: number | null, limit: number): Promise<CourseCardList> {
      if (memberId === null) return popular(limit)
      return recommend({ memberId, watched: false, favourites: true }, limit)
    },
  }
}

export type RecommendService = ReturnType<typeof createRecommendService>
