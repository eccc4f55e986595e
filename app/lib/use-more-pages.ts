import { useState } from 'react'

/** A page of a cursor-paged list as the API answers it; a first page may carry more (a balance, …). */
export interface CursorPage<T, C = string> {
  list: T[]
  next_cursor: C | null
}

/** What "more" has read after the first page (`of`): every item so far, the next cursor, how the last try went. */
interface Pages<T, C> {
  of: CursorPage<T, C>
  list: T[]
  cursor: C | null
  status: 'idle' | 'loading' | 'error'
}

/**
 * "Load more" after a first page (the server's, or one read in the browser): every item so far, the next cursor
 * and the state for ListEnd (a failure shows on the button). `fetchPage` reads the page after a cursor. Another
 * first page (a new filter, a reload) starts over from it.
 */
export function useMorePages<T, C = string>(
  first: CursorPage<T, C> | null,
  fetchPage: (cursor: C) => Promise<CursorPage<T, C>>,
) {
  const [pages, setPages] = useState<Pages<T, C> | null>(null)
  const sofar: Pages<T, C> | null =
    first === null
      ? null
      : pages?.of === first
        ? pages
        : { of: first, list: first.list, cursor: first.next_cursor, status: 'idle' }

  async function loadMore() {
    if (!sofar || sofar.cursor === null || sofar.status === 'loading') return
    setPages({ ...sofar, status: 'loading' })
    try {
      const next = await fetchPage(sofar.cursor)
      setPages({ ...sofar, list: [...sofar.list, ...next.list], cursor: next.next_cursor, status: 'idle' })
    } catch {
      setPages({ ...sofar, status: 'error' })
    }
  }

  return {
    list: sofar?.list ?? [],
    cursor: sofar?.cursor ?? null,
    status: sofar?.status ?? 'idle',
    loadMore: () => void loadMore(),
  }
}

/**
 * Each item once, the first time it came: an item can move between pages while someone reads (a new enrolment
 * changes the hot order).
 */
export function uniqueById<T extends { id: number }>(items: T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()]
}
