import { session, type KeyValueStore } from './browser-storage.ts'
import { toast } from './toast.ts'

/**
 * "登录成功！" (spec 8) that a learner can actually read: shown for at least LOGIN_TOAST_MS before the page reloads
 * or leaves (for WeChat's authorization), and shown again when the page comes back, because a reload or a
 * round trip to WeChat wipes the toast that was on screen.
 */
export const LOGIN_TOAST = '登录成功！'
export const LOGIN_TOAST_MS = 1500
const KEY = 'zx_login_toast'
/** A flag older than this is stale (the page never came back); it is dropped without a toast. */
const REPLAY_WITHIN_MS = 10 * 60 * 1000

function show() {
  toast(LOGIN_TOAST, { icon: 'success', duration: 2000 })
}

/**
 * Shows the toast and resolves after LOGIN_TOAST_MS. `leaving`: the page will reload or navigate away, so the toast
 * is shown again when it comes back.
 */
export function announceLogin(
  leaving: boolean,
  deps: { store?: KeyValueStore; now?: () => number; wait?: (ms: number) => Promise<void> } = {},
): Promise<void> {
  const { store = session, now = Date.now, wait = (ms) => new Promise((r) => setTimeout(r, ms)) } = deps
  show()
  if (leaving) store.setItem(KEY, String(now()))
  return wait(LOGIN_TOAST_MS)
}

/** At start-up: the toast again if this page load follows a login that reloaded or left; true when shown. */
export function replayLoginToast(deps: { store?: KeyValueStore; now?: () => number } = {}): boolean {
  const { store = session, now = Date.now } = deps
  const at = Number(store.getItem(KEY) ?? 0)
  store.removeItem(KEY)
  if (!at || now() - at > REPLAY_WITHIN_MS) return false
  show()
  return true
}
