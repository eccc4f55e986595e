import { session, type KeyValueStore } from '#app/lib/browser-storage.ts'
import { handleWechatReturn, startWechatLogin } from '#app/lib/wechat-login.ts'

/**
 * The checkout's way out when WeChat Pay JSAPI has no open id (issue 10 §3): the server answers 484, the page
 * remembers what was being paid, goes through WeChat's silent base-scope authorization (signed in, the server keeps
 * the open id for 6 hours) and comes back to the same page, which pays the same checkout again.
 */
export const OPENID_REQUIRED = 484
const KEY = 'zx_pending_pay'

/** The checkouts, and 继续支付 of a pending order (/orders/pay). */
export type PayPath =
  '/pay/course' | '/pay/vip' | '/pay/amount' | '/pay/tuition' | '/foryou/pay' | '/fav/pay' | '/orders/pay'
const RESUME_WITHIN_MS = 10 * 60 * 1000

interface PendingPay {
  page: string
  path: PayPath
  body: Record<string, unknown>
  at: number
}

function pageOf(location: { pathname: string; search: string }): string {
  const search = new URLSearchParams(location.search)
  for (const p of ['code', 'state', 'loginCallback']) search.delete(p)
  const query = search.toString()
  return `${location.pathname}${query ? `?${query}` : ''}`
}

/** Keeps the checkout and leaves for the base-scope authorization, which returns to this page. */
export function rememberPayForOpenid(
  path: PayPath,
  body: Record<string, unknown>,
  deps: { store?: KeyValueStore; location?: Location; now?: () => number; navigate?: (url: string) => void } = {},
): void {
  const { store = session, location = window.location, now = Date.now } = deps
  const page = pageOf(location)
  store.setItem(KEY, JSON.stringify({ page, path, body, at: now() } satisfies PendingPay))
  startWechatLogin('snsapi_base', page, null, deps.navigate)
}

/**
 * On a page that has just come back from that authorization: the checkout to pay again (once; the record is
 * removed), after the open id was handed to the server. Null anywhere else.
 */
export async function resumablePay(
  deps: { store?: KeyValueStore; location?: Location; now?: () => number; returned?: () => Promise<string> } = {},
): Promise<Pick<PendingPay, 'path' | 'body'> | null> {
  const { store = session, location = window.location, now = Date.now } = deps
  const raw = store.getItem(KEY)
  if (!raw) return null
  let pending: PendingPay
  try {
    pending = JSON.parse(raw) as PendingPay
  } catch {
    store.removeItem(KEY)
    return null
  }
  if (pending.page !== pageOf(location)) return null
  if (now() - pending.at > RESUME_WITHIN_MS) {
    store.removeItem(KEY)
    return null
  }
  // Only this page load's return from WeChat (the open id handed to the server) resumes the payment.
  const result = await (deps.returned ?? (() => handleWechatReturn()))()
  if (result !== 'openid') return null
  store.removeItem(KEY)
  return { path: pending.path, body: pending.body }
}
