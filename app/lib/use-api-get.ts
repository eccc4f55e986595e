import { useCallback, useEffect, useState } from 'react'
import { tokenMark } from '#shared/session-mark.ts'
import { api, ApiError, errorMessage } from './api.ts'
import type { ServerData } from './services-context.ts'
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
  | { status: 'loading' }
  /** `code`: the server's code when it answered one (404: what was asked for does not exist), else 0. */
  | { status: 'error'; message: string; code?: number }
  | { status: 'ready'; data: T }

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
  const queryKey = JSON.stringify(options.query ?? {})
  const load = useCallback(
    (asked: string, signal: AbortSignal) =>
      api.get<T>(asked, JSON.parse(queryKey) as Record<string, unknown>, { quiet: true, signal }),
    [queryKey],
  )
  return useBrowserLoad(path === null ? null : `${path}?${queryKey}`, path, load, options)
}

/**
 * `useApiGet` for an answer made of several calls (`load` makes them; `what` names them: a change asks again), in
 * the same states.
 */
export function useBrowserLoad<T, W>(
  key: string | null,
  what: W | null,
  load: (what: W, signal: AbortSignal) => Promise<T>,
  options: Omit<GetOptions, 'query'> = {},
) {
  const { errorText = '加载失败，请重试' } = options
  const hydrated = useHydrated()
  const { token } = useAuth()
  const asked = (options.member && !token) || key === null ? null : what
  const [answer, setAnswer] = useState<{ key: string; value: Fetched<T> } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const fullKey = `${token ?? ''}:${asked === null ? null : key}`

  useEffect(() => {
    if (!hydrated || asked === null) return
    const controller = new AbortController()
    load(asked, controller.signal)
      .then((data) => setAnswer({ key: fullKey, value: { status: 'ready', data } }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          setAnswer({
            key: fullKey,
            value: {
              status: 'error',
              message: errorMessage(error, errorText),
              code: error instanceof ApiError ? error.code : 0,
            },
          })
      })
    return () => controller.abort()
    // `asked` changes with `fullKey`; `load` is the caller's (stable for a key).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, fullKey, errorText, attempt])

  const state: Fetched<T> = answer?.key === fullKey ? answer.value : { status: 'loading' }
  const retry = useCallback(() => {
    setAnswer(null)
    setAttempt((n) => n + 1)
  }, [])
  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { state, data: state.status === 'ready' ? state.data : null, retry, reload }
}

/**
 * A member page's data from its loader (`server`: null when the server saw no member; app/lib/services-context.ts
 * `memberData`): as it came during the server render and hydration, afterwards while this browser's token is the one
 * it was read for (a logout or another sign-in drops it). A browser that was rendered data for its session cookie
 * but holds no token (it forgot it offline) clears the cookie; one with a token gets the cookie from the server on
 * its next API call (docs/decisions/2026-11-26-member-session-cookie.md).
 */
export function useServerData<T>(server: ServerData<T> | null): T | undefined {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const stale = hydrated && server !== null && !token
  useEffect(() => {
    if (stale) api.delete('/session/cookie', undefined, { quiet: true }).catch(() => {})
  }, [stale])
  return server && (!hydrated || (token && tokenMark(token) === server.mark)) ? server.data : undefined
}
