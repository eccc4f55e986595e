import { api } from './api.ts'
import { useApiGet, type Fetched, type GetOptions } from './use-api-get.ts'
import { useMorePages, type CursorPage } from './use-more-pages.ts'

/**
 * A cursor-paged list read in the browser: the first page as useApiGet reads it (or `initial`, the one the server
 * rendered: then nothing is asked), then `loadMore()` appends the next ones (useMorePages). The data is the first
 * page with every item so far and the next cursor; `more` is ListEnd's state. Reading the first page again starts
 * over.
 */
export function usePagedList<T, C extends string | number = string, P extends CursorPage<T, C> = CursorPage<T, C>>(
  path: string | null,
  options: GetOptions & { initial?: P } = {},
) {
  const { initial } = options
  const first = useApiGet<P>(initial ? null : path, options)
  const firstPage = initial ?? first.data
  const pages = useMorePages<T, C>(firstPage, (cursor) =>
    // There is a first page, so there is a path.
    api.get<P>(path!, { ...options.query, cursor }, { quiet: true }),
  )
  const state: Fetched<P> = firstPage
    ? { status: 'ready', data: { ...firstPage, list: pages.list, next_cursor: pages.cursor } }
    : first.state
  return { state, more: pages.status, loadMore: pages.loadMore, retry: first.retry }
}
