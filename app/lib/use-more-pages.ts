import { useState } from 'react'

/** A page of a cursor-paged list as the API answers it. */
export interface CursorPage<T> {
  list: T[]
  next_cursor: string | null
}

/**
 * "Load more" after a first page the server rendered: the items so far, deduplicated by id (an item can move
 * between pages while someone reads, e.g. a new enrolment changes the hot order), whether there are more, and
 * the state for ListEnd. `fetchPage` reads the page after a cursor.
 */
export function useMorePages<T extends { id: number }>(
  first: CursorPage<T>,
  fetchPage: (cursor: string) => Promise<CursorPage<T>>,
) {
  const [more, setMore] = useState<T[]>([])
  const [cursor, setCursor] = useState(first.next_cursor)
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle')

  async function loadMore() {
    if (!cursor || status === 'loading') return
    setStatus('loading')
    try {
      const page = await fetchPage(cursor)
      setMore((list) => [...list, ...page.list])
      setCursor(page.next_cursor)
      setStatus('idle')
    } catch {
      setStatus('error')
    }
  }

  const all = [...new Map([...first.list, ...more].map((item) => [item.id, item])).values()]
  return { all, hasMore: cursor !== null, status, loadMore: () => void loadMore() }
}
