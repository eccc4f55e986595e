import { useCallback, useEffect, useState } from 'react'
import { ApiError, api, errorMessage } from './api.ts'
import { useAuth, useHydrated } from './use-auth.ts'

export interface GetOptions {
  query?: Record<string, unknown>
  /** Only a signed-in member may ask. */
  member?: boolean
  /** The message when the call fails without one from the server. */
  errorText?: string
}

/** What a GET made in the browser has given so far. */
export type Fetched<T> =
  { status: 'loading' } | { status: 'error'; message: string; code: number | null } | { status: 'ready'; data: T }

/**
 * One GET call made in the browser once hydrated, with the member's token when there is one (it lives in
 * localStorage, so the server render cannot ask): loading, failed (its message; no toast) or the data, also as
 * `data` (null until it came, or when it failed). Nothing is asked while `path` is null, nor for a visitor when
 * the call is the member's own (`member`: it would only answer "log in").
 *
 * It is asked again when the path, the query or the login changes, showing loading meanwhile, never another
 * call's answer; `retry()` does the same. `reload()` asks again but keeps showing the current answer until the
 * new one comes (after the member changed something).
 */
export function useApiGet<T>(path: string | null, options: GetOptions = {}) {
  const { query, errorText = '加载失败，请重试' } = options
  const hydrated = useHydrated()
  const { token } = useAuth()
  const asked = options.member && !token ? null : path
  const [answer, setAnswer] = useState<{ key: string; value: Fetched<T> } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const queryKey = JSON.stringify(query ?? {})
  const key = `${token ?? ''}:${asked}:${queryKey}`

  useEffect(() => {
    if (!hydrated || asked === null) return
    const controller = new AbortController()
    api
      .get<T>(asked, JSON.parse(queryKey) as Record<string, unknown>, { quiet: true, signal: controller.signal })
      .then((data) => setAnswer({ key, value: { status: 'ready', data } }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const code = error instanceof ApiError ? error.code : null
        setAnswer({ key, value: { status: 'error', message: errorMessage(error, errorText), code } })
      })
    return () => controller.abort()
  }, [hydrated, asked, queryKey, key, errorText, attempt])

  const state: Fetched<T> = answer?.key === key ? answer.value : { status: 'loading' }
  const retry = useCallback(() => {
    setAnswer(null)
    setAttempt((n) => n + 1)
  }, [])
  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, data: state.status === 'ready' ? state.data : null, retry, reload }
}

/** A page of a cursor-paged list as the API answers it; the first page may carry more (a balance, …). */
export interface CursorPage<T, C = string> {
  list: T[]
  next_cursor: C | null
}

/** The pages read after the first one (`of`): every item so far, the next cursor, how "more" went. */
interface Pages<T, C, P> {
  of: P
  list: T[]
  cursor: C | null
  more: 'idle' | 'loading' | 'error'
}

/**
 * A cursor-paged list read in the browser: the first page as useApiGet reads it, then `loadMore()` appends the
 * next ones. The data is the first page with every item so far and the cursor of the next page; a failed "more"
 * shows on the button (`more` is ListEnd's state), without a toast. Reading the first page again starts over.
 */
export function usePagedList<T, C extends string | number = string, P extends CursorPage<T, C> = CursorPage<T, C>>(
  path: string | null,
  options: GetOptions = {},
) {
  const first = useApiGet<P>(path, options)
  const [pages, setPages] = useState<Pages<T, C, P> | null>(null)
  const page = first.data
  const sofar: Pages<T, C, P> | null =
    page === null
      ? null
      : pages?.of === page
        ? pages
        : { of: page, list: page.list, cursor: page.next_cursor, more: 'idle' }

  async function loadMore() {
    if (!path || !sofar || sofar.cursor === null || sofar.more === 'loading') return
    setPages({ ...sofar, more: 'loading' })
    try {
      const next = await api.get<P>(path, { ...options.query, cursor: sofar.cursor }, { quiet: true })
      setPages({ ...sofar, list: [...sofar.list, ...next.list], cursor: next.next_cursor, more: 'idle' })
    } catch {
      setPages({ ...sofar, more: 'error' })
    }
  }

  const state: Fetched<P> = sofar
    ? { status: 'ready', data: { ...sofar.of, list: sofar.list, next_cursor: sofar.cursor } }
    : first.state
  return { state, more: sofar?.more ?? 'idle', loadMore: () => void loadMore(), retry: first.retry }
}
