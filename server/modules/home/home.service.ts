import type { Db } from '#server/db/database.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import { COURSE_LISTS_TAG, courseCardsByIds, PUBLIC_CACHE_MS } from '#server/modules/catalogue/catalogue.service.ts'
import { findFeedSections } from './home.repository.ts'
import type { HomeFeed } from './home.schema.ts'

export type FeedName = 'v3' | 'v2'

const homeFeedTag = (feed: FeedName) => `home:${feed}`

/**
 * A home feed: its sections in order. Course sections list their published courses (hidden ones drop out);
 * banner and shortcut sections list their links. Sections left with nothing to show are omitted.
 */
async function getHomeFeed(db: Db, feed: FeedName): Promise<HomeFeed> {
  const rows = await findFeedSections(db, feed)
  // Two statements: the sections with their items, then the cards of the published courses they name.
  const isLinkSection = (s: (typeof rows)[number]) => s.kind === 'banner' || s.kind === 'shortcuts'
  const courseIds = rows
    .filter((s) => !isLinkSection(s))
    .flatMap((s) => s.items.flatMap((i) => (i.courseId === null ? [] : [i.courseId])))
  const cards = await courseCardsByIds(db, courseIds)
  const sections = rows.map((s) => {
    const linkSection = isLinkSection(s)
    return {
      id: s.id,
      kind: s.kind,
      title: s.title,
      subtitle: s.subtitle,
      more_link: s.moreLink,
      items: linkSection ? s.items.map((i) => ({ id: i.id, title: i.title, image: i.imageUrl, link: i.link })) : [],
      courses: linkSection
        ? []
        : s.items.flatMap((i) => {
            const card = i.courseId === null ? undefined : cards.get(i.courseId)
            return card ? [card] : []
          }),
    }
  })
  return { sections: sections.filter((s) => s.items.length > 0 || s.courses.length > 0) }
}

/** The home feeds as routes and the home pages use them, cached for a few seconds (`cacheMs: 0` turns it off). */
export function createHomeService(deps: { db: Db; cacheMs?: number }) {
  const cache = publicCache({
    max: 2,
    ttlMs: deps.cacheMs ?? PUBLIC_CACHE_MS,
    load: (feed: FeedName) => getHomeFeed(deps.db, feed),
    // Any course write may change a card of the feed or take a course off it.
    tagsOf: (_, feed) => [COURSE_LISTS_TAG, homeFeedTag(feed)],
  })
  return {
    /** The feed named `feed` ('v3' for /, 'v2' for /index1). */
    feed: (feed: FeedName) => cache.get(feed),
    /** Forgets a cached feed (an operator changed it) in every process: the next read loads it again. */
    invalidate: (feed: FeedName) => invalidate(deps.db, [homeFeedTag(feed)]),
  }
}

export type HomeService = ReturnType<typeof createHomeService>

/** The home feed as operators edit it (home-admin.ts). */
export { createHomeAdmin, type HomeAdmin } from './home-admin.ts'
