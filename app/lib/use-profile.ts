import { useCallback, useEffect, useState } from 'react'
import type { UserInfo as Answer } from '#shared/api/members.ts'
import { api, errorMessage } from './api.ts'
import { authStore, type UserInfo as StoredUser } from './auth-store.ts'
import { useAuth, useHydrated } from './use-auth.ts'

/** The user info the app keeps, with the VIP GET /userinfo answers beside the profile. */
type UserInfo = StoredUser & Partial<Pick<Answer, 'vip'>>

type ProfileState =
  | { status: 'pending' }
  | { status: 'anonymous' }
  | { status: 'loading'; user: UserInfo | null }
  | { status: 'ready'; user: UserInfo }
  | { status: 'error'; user: UserInfo | null; message: string }

/**
 * The signed-in member's profile (and VIP) for the account screens: `server`, GET /userinfo's answer the server
 * rendered (useServerData), at once and without a request; otherwise nothing during the server render
 * ("pending"), then anonymous, or the stored user info at once while GET /api/userinfo refreshes it. A 301/504
 * answer logs out and opens the login popup (the request wrapper does that).
 */
export function useProfile(server?: Answer) {
  const hydrated = useHydrated()
  const { token, user } = useAuth()
  const [fetched, setFetched] = useState<{ token: string; error: string | null } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const given = attempt === 0 ? server : undefined

  useEffect(() => {
    if (!token) return
    // The server's answer is kept as a fresh one would be.
    if (given) return authStore.update(given)
    const controller = new AbortController()
    api
      .get<UserInfo>('/userinfo', undefined, { quiet: true, signal: controller.signal })
      .then((profile) => {
        authStore.update(profile)
        setFetched({ token, error: null })
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFetched({ token, error: errorMessage(error, '资料加载失败') })
      })
    return () => controller.abort()
  }, [token, attempt, given])

  const retry = useCallback(() => {
    setFetched(null)
    setAttempt((n) => n + 1)
  }, [])

  let state: ProfileState
  if (given) state = { status: 'ready', user: given }
  else if (!hydrated) state = { status: 'pending' }
  else if (!token) state = { status: 'anonymous' }
  else if (fetched?.token !== token) state = { status: 'loading', user }
  else if (fetched.error) state = { status: 'error', user, message: fetched.error }
  else state = { status: 'ready', user: user ?? {} }
  return { state, retry }
}
