import { and, asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { homeSections } from '#server/db/schema/home.ts'

/** The visible sections of one feed with their items (an item's course is only its id): one statement. */
export async function findFeedSections(db: DbOrTx, feed: 'v3' | 'v2') {
  return db.query.homeSections.findMany({
    where: and(eq(homeSections.feed, feed), eq(homeSections.visible, true)),
    columns: { id: true, kind: true, title: true, subtitle: true, moreLink: true },
    orderBy: (s) => [asc(s.sort), asc(s.id)],
    with: {
      items: {
        columns: { id: true, title: true, imageUrl: true, link: true, courseId: true },
        orderBy: (i) => [asc(i.sort), asc(i.id)],
      },
    },
  })
}
