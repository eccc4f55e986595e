import { local } from '#app/lib/browser-storage.ts'

/** How often a playing video saves its position (issue 3: every 10 s, on pause and when the page is hidden). */
export const SAVE_EVERY_MS = 10_000

export type AccessMode = 'full' | 'preview' | 'none'

/**
 * Where a position goes: a member's full view to POST /update_play_data, a member's preview to
 * /video/updateFreeData, an anonymous visitor's to this browser only (the server keeps no anonymous progress).
 */
export type SaveTarget = '/update_play_data' | '/video/updateFreeData' | 'local' | null

export function saveTarget(mode: AccessMode, signedIn: boolean): SaveTarget {
  if (mode === 'none') return null
  if (!signedIn) return 'local'
  return mode === 'full' ? '/update_play_data' : '/video/updateFreeData'
}

const LOCAL_KEY = 'zx_play_progress'
const LOCAL_MAX = 100

type LocalMap = Record<string, { p: number; t: number }>

function readLocal(): LocalMap {
  try {
    const parsed = JSON.parse(local.getItem(LOCAL_KEY) ?? '{}') as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as LocalMap) : {}
  } catch {
    return {}
  }
}

/** An anonymous visitor's positions, newest 100 videos, in localStorage. */
export const localProgress = {
  get(vid: number): number {
    const entry = readLocal()[String(vid)]
    return entry && Number.isFinite(entry.p) ? Math.max(0, Math.floor(entry.p)) : 0
  },
  set(vid: number, position: number) {
    const map = readLocal()
    map[String(vid)] = { p: Math.floor(position), t: Date.now() }
    const keys = Object.keys(map)
    if (keys.length > LOCAL_MAX) {
      for (const k of keys.sort((a, b) => map[a]!.t - map[b]!.t).slice(0, keys.length - LOCAL_MAX)) delete map[k]
    }
    // Guarded: in private mode or with a full storage the position is simply not kept.
    local.setItem(LOCAL_KEY, JSON.stringify(map))
  },
}

/** A random id from 1 to 2^31 − 1 (crypto.getRandomValues works on plain http too, unlike randomUUID). */
function pageViewId() {
  return crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1 || 1
}

export interface ProgressSaverOptions {
  vid: number
  target: SaveTarget
  token: string | null
}

/**
 * Saves positions for one video. The token rides in the body, not the ZXB-Token header: the server trusts a body
 * token of these two endpoints for a minute without looking the session up again, which is what makes the
 * hottest write cheap (docs/decisions/2026-11-22-progress-saves.md). `save` is a plain fetch (keepalive, errors
 * ignored: a failed save must not interrupt the lesson); `leave` uses sendBeacon, which the browser sends even
 * after the page is gone but which cannot set headers or send application/json, hence text/plain.
 */
export function createProgressSaver(options: ProgressSaverOptions) {
  let last = -1
  // Saves can overtake each other (a periodic save still on its way when the page-hide beacon leaves): each carries
  // this page view's id and its number, and the server keeps the later one.
  const view = pageViewId()
  let seq = 0

  function payload(position: number, duration?: number) {
    const b: Record<string, unknown> = {
      vid: options.vid,
      position: Math.floor(position),
      token: options.token,
      view,
      seq: seq++,
    }
    if (duration && Number.isFinite(duration) && options.target === '/update_play_data')
      b.duration = Math.floor(duration)
    return JSON.stringify(b)
  }

  function post(body: string, type: string) {
    void fetch(`/api${options.target}`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => {})
  }

  function moved(position: number) {
    if (!options.target || !Number.isFinite(position) || Math.abs(position - last) < 1) return false
    last = position
    return true
  }

  return {
    /** Saves unless nothing moved since the last save. */
    save(position: number, duration?: number) {
      if (!moved(position)) return
      if (options.target === 'local') localProgress.set(options.vid, position)
      else post(payload(position, duration), 'application/json')
    },
    /** The page is going away: a beacon, which the browser sends even after the page is gone. */
    leave(position: number, duration?: number) {
      if (!moved(position)) return
      if (options.target === 'local') {
        localProgress.set(options.vid, position)
        return
      }
      const body = payload(position, duration)
      const sent =
        typeof navigator.sendBeacon === 'function' &&
        navigator.sendBeacon(`/api${options.target}`, new Blob([body], { type: 'text/plain;charset=UTF-8' }))
      if (!sent) post(body, 'text/plain;charset=UTF-8')
    },
  }
}
