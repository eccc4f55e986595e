import { useCallback, useEffect, useState } from 'react'
import { api, errorMessage } from './api.ts'
import { authStore, type UserInfo } from './auth-store.ts'
import { useAuth, useHydrated } from './use-auth.ts'

type ProfileState =
  | { status: 'pending' }
  | { status: 'anonymous' }
  | { status: 'loading'; user: UserInfo | null }
  | { status: 'ready'; user: UserInfo }
  | { status: 'error'; user: UserInfo | null; message: string }

/**
 * The signed-in member's profile for the account screens: nothing during the server render ("pending"), then
 * anonymous, or the stored user info at once while GET /api/userinfo refreshes it. A 301/504 answer logs out
 * and opens the login popup (the request wrapper does that).
 */
export function useProfile() {
  const hydrated = useHydrated()
  const { token, user } = useAuth()
  const [fetched, setFetched] = useState<{ token: string; error: string | null } | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!token) return
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
  }, [token, attempt])

  const retry = useCallback(() => {
    setFetched(null)
    setAttempt((n) => n + 1)
  }, [])

  let state: ProfileState
  if (!hydrated) state = { status: 'pending' }
  else if (!token) state = { status: 'anonymous' }
  else if (fetched?.token !== token) state = { status: 'loading', user }
  else if (fetched.error) state = { status: 'error', user, message: fetched.error }
  else state = { status: 'ready', user: user ?? {} }
  return { state, retry }
}
