import { asc, desc, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { ListQuery } from '#shared/api/list.ts'

/**
 * The ORDER BY, LIMIT and OFFSET of a console list (shared/api/list.ts) from its query and the list's sortable
 * columns; `tieBreaker` (the primary key) keeps pages stable when the sort column repeats. A repository applies
 * them: `.orderBy(...p.orderBy).limit(p.limit).offset(p.offset)`, and counts with the same WHERE.
 */
export function pageOf<S extends string>(
  query: Pick<ListQuery, 'page' | 'page_size' | 'order'> & { sort: S },
  sortable: Record<S, AnyPgColumn | SQL>,
  tieBreaker: AnyPgColumn,
) {
  const dir = query.order === 'asc' ? asc : desc
  return {
    orderBy: [dir(sortable[query.sort]), dir(tieBreaker)],
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  }
}

/**
 * Every row a filter shows, page after page of `batch` (the export's reader): `read` is the list's own paged
 * query; it stops at `max` rows.
 */
export async function* allPages<T, Q extends ListQuery>(
  query: Q,
  read: (q: Q) => Promise<{ list: T[] }>,
  max: number,
  batch = 1000,
): AsyncGenerator<T> {
  let seen = 0
  for (let page = 1; seen < max; page++) {
    const { list } = await read({ ...query, page, page_size: batch })
    for (const row of list.slice(0, max - seen)) yield row
    seen += list.length
    if (list.length < batch) return
  }
}
