import { session } from './browser-storage.ts'
import { mayReloadForChunkError } from './route-rules.ts'

const KEY = 'zx_chunk_reload_at'

/**
 * After a deploy, an open page may ask for a route chunk that no longer exists. Reloading fetches the new build;
 * the timestamp in sessionStorage limits this to once per 60 s so a broken build cannot reload forever.
 * Returns whether a reload was started.
 */
export function reloadForChunkError(now = Date.now()): boolean {
  if (typeof window === 'undefined') return false
  const raw = session.getItem(KEY)
  const last = raw === null ? null : Number(raw)
  if (!mayReloadForChunkError(last, now)) return false
  session.setItem(KEY, String(now))
  window.location.reload()
  return true
}
