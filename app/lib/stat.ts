import type { StatName } from '#server/modules/stats/stats.schema.ts'
import { authStore } from './auth-store.ts'

export type { StatName }

/** What a beacon needs of the browser, passed in so the rule is testable without one. */
export interface BeaconDeps {
  sendBeacon: (url: string, body: string) => boolean
  token: () => string | null
  page: () => string
}

/**
 * Sends a click statistic (spec 7 POST /api/stat/{name}/click) with `navigator.sendBeacon`, so it never holds up
 * the navigation the click starts. Spec 6: counted only for a signed-in member. A beacon cannot carry the
 * ZXB-Token header, so the token travels in the text/plain JSON body, which the stats routes accept.
 * Returns whether a beacon was queued. Fire and forget: never a toast, never an error.
 */
export function sendStatWith(deps: BeaconDeps, name: StatName, params: { position?: number | string } = {}): boolean {
  const token = deps.token()
  if (!token) return false
  const body = JSON.stringify({ position: params.position, page: deps.page(), token })
  try {
    return deps.sendBeacon(`/api/stat/${name}/click`, body)
  } catch {
    return false
  }
}

/**
 * The browser's sendStat: `sendStat('bindPhone')` from the bind-phone control, `sendStat('customer', { position: 3 })`
 * from the service button, `sendStat('vipTarbar', { position: 1 })` from the VIP tab.
 */
export function sendStat(name: StatName, params: { position?: number | string } = {}): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return false
  return sendStatWith(
    {
      sendBeacon: (url, body) => navigator.sendBeacon(url, body),
      token: () => (authStore.isLoggedIn() ? authStore.getToken() : null),
      page: () => window.location.pathname,
    },
    name,
    params,
  )
}
