import { and, asc, eq } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { homeSections } from '#server/db/schema/home.ts'
import { courseCardColumns } from '#server/modules/catalogue/catalogue.repository.ts'

/** The visible sections of one feed with their items and each item's course and teacher name: one statement. */
export async function findFeedSections(db: DbOrTx, feed: 'v3' | 'v2') {
  return db.query.homeSections.findMany({
    where: and(eq(homeSections.feed, feed), eq(homeSections.visible, true)),
    columns: { id: true, kind: true, title: true, subtitle: true, moreLink: true },
    orderBy: (s) => [asc(s.sort), asc(s.id)],
    with: {
      items: {
        columns: { id: true, title: true, imageUrl: true, link: true, courseId: true },
        orderBy: (i) => [asc(i.sort), asc(i.id)],
        with: { course: { columns: courseCardColumns, with: { teacher: { columns: { name: true } } } } },
      },
    },
  })
}
