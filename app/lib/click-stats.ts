import type { StatName } from '#server/modules/stats/stats.schema.ts'
import { api } from './api.ts'
import { authStore } from './auth-store.ts'

/**
 * Sends a click statistic (spec 7 POST /stat/{name}/click) for a signed-in member; spec 6 says tab clicks are
 * counted only when logged in, and so are the others here. Fire and forget: never a toast, never an error.
 */
export function sendClickStat(name: StatName, position?: number | string): void {
  if (typeof window === 'undefined' || !authStore.isLoggedIn()) return
  void api.post(
    `/stat/${name}/click`,
    { position, page: window.location.pathname },
    { quiet: true, emptyOnError: true },
  )
}
