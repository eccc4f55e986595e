import { useCallback, useEffect, useMemo, useState } from 'react'
import { api, errorMessage } from '#app/lib/api.ts'
import { beijingCalendarDay, beijingClock, beijingDaysAgo } from '#app/lib/beijing-format.ts'

export type MemberList<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; list: T[]; nextCursor: string | null; loadingMore: boolean }

/**
 * A member's cursor-paged list from the API (the token is in localStorage, so it is fetched in the browser): the
 * first page once signed in, `more()` for the next, `retry()` after an error. Nothing is fetched without a token.
 */
export function useMemberList<T>(path: string, token: string | null, pageSize = 20) {
  const [state, setState] = useState<{ key: string; value: MemberList<T> } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const key = `${token ?? ''}:${path}:${attempt}`

  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<{ list: T[]; next_cursor?: string | null }>(
        path,
        { limit: pageSize },
        { quiet: true, signal: controller.signal },
      )
      .then((data) =>
        setState({
          key,
          value: { status: 'ready', list: data.list, nextCursor: data.next_cursor ?? null, loadingMore: false },
        }),
      )
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setState({ key, value: { status: 'error', message: errorMessage(error, '加载失败，请重试') } })
      })
    return () => controller.abort()
  }, [token, path, pageSize, key])

  const current = useMemo<MemberList<T>>(() => (state?.key === key ? state.value : { status: 'loading' }), [state, key])

  const more = useCallback(() => {
    if (current.status !== 'ready' || !current.nextCursor || current.loadingMore) return
    const cursor = current.nextCursor
    setState({ key, value: { ...current, loadingMore: true } })
    api
      .get<{ list: T[]; next_cursor?: string | null }>(path, { limit: pageSize, cursor })
      .then((data) =>
        setState({
          key,
          value: {
            status: 'ready',
            list: [...current.list, ...data.list],
            nextCursor: data.next_cursor ?? null,
            loadingMore: false,
          },
        }),
      )
      .catch(() => setState({ key, value: { ...current, loadingMore: false } }))
  }, [current, key, path, pageSize])

  const retry = useCallback(() => setAttempt((n) => n + 1), [])
  return { state: current, more, retry }
}

/** "今天 14:05", "昨天 09:30", "11月20日" or "2025年3月4日", in Beijing time. */
export function formatStudiedAt(iso: string, now = Date.now()) {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ''
  const daysAgo = beijingDaysAgo(at, new Date(now))
  if (daysAgo === 0) return `今天 ${beijingClock(at)}`
  if (daysAgo === 1) return `昨天 ${beijingClock(at)}`
  return beijingCalendarDay(at, new Date(now))
}
