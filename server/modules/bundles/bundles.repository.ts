import { and, asc, eq, exists, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { rowsBy } from '#server/db/rows.ts'
import { bundleCourses, bundles } from '#server/db/schema/bundles.ts'

export type BundleRow = typeof bundles.$inferSelect

/** Bundles on sale (or every bundle, for operators), in display order. */
export async function findBundles(db: DbOrTx, filter: { activeOnly: boolean; courseId?: number }) {
  return db
    .select()
    .from(bundles)
    .where(
      and(
        filter.activeOnly ? eq(bundles.active, true) : undefined,
        filter.courseId === undefined
          ? undefined
          : exists(
              db
                .select({ one: sql`1` })
                .from(bundleCourses)
                .where(and(eq(bundleCourses.bundleId, bundles.id), eq(bundleCourses.courseId, filter.courseId))),
            ),
      ),
    )
    .orderBy(asc(bundles.sort), asc(bundles.id))
}

export const { find: findBundle, insert: insertBundle, update: updateBundle } = rowsBy(bundles, bundles.id)

/** The courses of these bundles, each bundle's in its order (course details come from the catalogue). */
export async function findBundleCourseIds(db: DbOrTx, bundleIds: number[]) {
  if (bundleIds.length === 0) return []
  return db
    .select({ bundleId: bundleCourses.bundleId, courseId: bundleCourses.courseId })
    .from(bundleCourses)
    .where(inArray(bundleCourses.bundleId, bundleIds))
    .orderBy(asc(bundleCourses.bundleId), asc(bundleCourses.position), asc(bundleCourses.courseId))
}

/** Replaces a bundle's courses with `courseIds`, in that order. */
export async function setBundleCourses(db: DbOrTx, bundleId: number, courseIds: number[]) {
  await db.delete(bundleCourses).where(eq(bundleCourses.bundleId, bundleId))
  if (courseIds.length > 0)
    await db.insert(bundleCourses).values(courseIds.map((courseId, position) => ({ bundleId, courseId, position })))
}
