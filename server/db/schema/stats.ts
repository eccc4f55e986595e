import { index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { identity, timestamptz } from './columns.ts'

/**
 * Click statistics (spec 7 /stat/*, and clicks on a course's comment area): append-only, one insert per event,
 * read by the daily rollup. A BRIN index on the time suits an append-only log and costs almost nothing to keep.
 */
export const statEvents = pgTable(
  'stat_events',
  {
    id: identity(),
    /** project, studyRecord, fav, bindPhone, courseDetailTag, customer, myCourse, vipTarbar, vipBuyBtn, commentCourse. */
    event: text().notNull(),
    /** Null for anonymous visitors; no foreign key, so the log never blocks deleting a member. */
    memberId: integer(),
    position: text(),
    page: text(),
    courseId: integer(),
    createdAt: timestamptz().notNull(),
  },
  (t) => [index('stat_events_created_brin').using('brin', t.createdAt)],
)
