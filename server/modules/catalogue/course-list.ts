import { z } from 'zod'
import type { Db } from '#server/db/database.ts'
import { cursorId, decodeCursor, encodeCursor } from '#server/http/cursor.ts'
import type { CourseList, CourseListQuery, CourseSort } from '#shared/api/catalogue.ts'
import { listCoursePage } from './catalogue.repository.ts'
import { presentCourseCard } from './present.ts'

// The course lists (GET /v2/course_list and the pages that list courses): a page by keyset cursor, and the key the
// list cache (catalogue.service.ts) keeps it under.

/** A course list cursor, `[sort, key, id]`: it only continues the listing (sort) it came from. */
const listCursor = (sort: CourseSort) =>
  z.tuple([
    z.literal(sort),
    z.string().regex(sort === 'new' ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/ : /^-?\d{1,10}$/),
    cursorId,
  ])

/** A course list query as pages build it: `vip_free` may be left out. */
export type CoursePageQuery = Omit<CourseListQuery, 'vip_free'> & { vip_free?: boolean }

/** A course list query as the list cache keys it (JSON of this tuple). */
type CoursePageKey = [
  CoursePageQuery['cate_id'],
  CoursePageQuery['type'],
  CoursePageQuery['vip_free'],
  CoursePageQuery['sort'],
  CoursePageQuery['cursor'],
  CoursePageQuery['limit'],
]

/** One page of course cards; `next_cursor` continues the same filter and sort. */
async function getCoursePage(db: Db, q: CoursePageQuery): Promise<CourseList> {
  const cursor = q.cursor ? decodeCursor(q.cursor, listCursor(q.sort)) : undefined
  const rows = await listCoursePage(db, {
    categoryId: q.cate_id,
    type: q.type,
    vipFree: q.vip_free,
    sort: q.sort,
    after: cursor && { key: cursor[1], id: cursor[2] },
    limit: q.limit + 1,
  })
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  return {
    list: page.map(presentCourseCard),
    next_cursor: rows.length > q.limit && last ? encodeCursor([q.sort, last.sortKey, last.id]) : null,
  }
}

/** The list cache's key of a query: the fields that pick the page, as JSON. */
export function coursePageKey(q: CoursePageQuery) {
  const key: CoursePageKey = [q.cate_id, q.type, q.vip_free, q.sort, q.cursor, q.limit]
  return JSON.stringify(key)
}

/** Loads the page a list cache key names. */
export function coursePageFromKey(db: Db, key: string) {
  // JSON writes a missing field as null: back to undefined.
  const [cate_id, type, vip_free, sort, cursor, limit] = (JSON.parse(key) as CoursePageKey).map(
    (v) => v ?? undefined,
  ) as CoursePageKey
  return getCoursePage(db, { cate_id, type, vip_free, sort, cursor, limit })
}
