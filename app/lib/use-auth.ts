import { useSyncExternalStore } from 'react'
import { ANONYMOUS, authStore, type AuthSnapshot } from './auth-store.ts'

/**
 * The login state for components. The server render and the hydration pass see nobody logged in (the token lives
 * in localStorage; the member pages get their data from their loaders instead, through the session cookie: see
 * `useServerData`); React then re-renders with the stored state when a member is signed in (a visitor's snapshot is
 * the same `ANONYMOUS`: nothing renders twice). Use `useHydrated()` to show a neutral placeholder instead of a wrong
 * "log in" button during that first pass.
 */
export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(authStore.subscribe, authStore.getSnapshot, () => ANONYMOUS)
}

const noSubscribe = () => () => {}

/** False during the server render and hydration, true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  )
}
