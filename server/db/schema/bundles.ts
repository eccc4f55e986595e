import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { courses } from './catalogue.ts'
import { cascadeRef, identity, ref, timestampsDefaultNow } from './columns.ts'

/**
 * A set of courses sold together at one price (/foryou/{id}). A member who already owns some of them pays the
 * bundle price in proportion to the list prices of the rest (server/modules/bundles/bundle-price.ts).
 */
export const bundles = pgTable(
  'bundles',
  {
    id: identity(),
    title: text().notNull(),
    subtitle: text().notNull().default(''),
    coverUrl: text(),
    /** Plain text paragraphs separated by blank lines; rendered escaped. */
    intro: text().notNull().default(''),
    priceFen: integer().notNull(),
    active: boolean().notNull().default(true),
    sort: integer().notNull().default(0),
    ...timestampsDefaultNow(),
  },
  (t) => [check('bundles_price_ck', sql`${t.priceFen} > 0`)],
)

export const bundleCourses = pgTable(
  'bundle_courses',
  {
    bundleId: cascadeRef(() => bundles.id),
    courseId: ref(() => courses.id).notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bundleId, t.courseId] }), index('bundle_courses_course_idx').on(t.courseId)],
)
