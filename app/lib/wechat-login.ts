import { api, type Api } from './api.ts'
import { authStore, type AuthStore, type UserInfo } from './auth-store.ts'
import { isWechat } from './platform.ts'
import { toast } from './toast.ts'

/**
 * WeChat sign-in in the browser (spec 4 and 7). The server starts the OAuth flow (GET /api/wechat/oauth, which
 * binds a single-use `state` to this browser) and WeChat sends the person back to the page with `code`, `state`
 * and our `loginCallback` flag. On the way back: `loginCallback=true` signs in (POST /wx_login) unless a token is
 * already stored; `loginCallback=false` (the base scope after a phone login) only keeps the open id for 6 hours.
 */

export type WechatScope = 'snsapi_base' | 'snsapi_userinfo'

/** WeChat's in-app browser; WeCom ("wxwork") also says MicroMessenger but cannot use WeChat's OAuth. */
export function isWechatBrowser(userAgent: string): boolean {
  return isWechat(userAgent)
}

/** The server address that starts the flow and redirects to WeChat's authorize page. */
export function wechatOauthUrl(scope: WechatScope, returnPath: string, login1?: string | null): string {
  const query = new URLSearchParams({ scope, path: safeReturnPath(returnPath) })
  if (login1) query.set('login1', login1)
  return `/api/wechat/oauth?${query.toString()}`
}

/**
 * Only paths on this site come back from WeChat (the server refuses anything else too); a full address of this
 * site is reduced to its path, anything else becomes the home page.
 */
export function safeReturnPath(path: string | null | undefined, origin?: string): string {
  if (!path) return '/'
  let candidate = path.trim()
  if (origin && candidate.startsWith(`${origin}/`)) candidate = candidate.slice(origin.length)
  // eslint-disable-next-line no-control-regex
  if (!/^\/(?![/\\])/.test(candidate) || /[\\\u0000-\u001f\u007f]/.test(candidate) || candidate.length > 500) return '/'
  return candidate
}

/** Leaves for WeChat's authorization; the page comes back to `returnPath` with the code. */
export function startWechatLogin(
  scope: WechatScope,
  returnPath: string,
  login1?: string | null,
  navigate: (url: string) => void = (url) => window.location.assign(url),
): void {
  navigate(wechatOauthUrl(scope, returnPath, login1))
}

/**
 * After a phone login inside WeChat (spec 7): to WeChat's base-scope authorization, which comes back to `target`
 * with `loginCallback=false` and the open id; when the page carries `login1`, through /wechatLogin with `path`
 * and `login1` instead.
 */
export function afterPhoneLoginInWechat(
  target: string,
  search: string,
  navigate: (url: string) => void = (url) => window.location.assign(url),
): void {
  const login1 = new URLSearchParams(search).get('login1')
  if (login1 && /^[\w-]{1,64}$/.test(login1)) {
    navigate(`/wechatLogin?${new URLSearchParams({ path: safeReturnPath(target), login1 }).toString()}`)
    return
  }
  startWechatLogin('snsapi_base', target, null, navigate)
}

/** What a page address asks for after WeChat's authorization. */
export type WechatReturn = { action: 'login' | 'openid' | 'none'; code: string; state: string; cleanUrl: string } | null

const OAUTH_PARAMS = ['code', 'state', 'loginCallback'] as const

/**
 * Reads `code`, `state` and `loginCallback` from a page address. Null when the address carries no
 * `loginCallback` (nothing to do); otherwise the action and the address without the three parameters.
 */
export function parseWechatReturn(href: string, hasToken: boolean): WechatReturn {
  const url = new URL(href, 'http://localhost')
  const flag = url.searchParams.get('loginCallback')
  if (flag === null) return null
  const code = url.searchParams.get('code') ?? ''
  const state = url.searchParams.get('state') ?? ''
  for (const p of OAUTH_PARAMS) url.searchParams.delete(p)
  const cleanUrl = `${url.pathname}${url.search}${url.hash}`
  let action: 'login' | 'openid' | 'none' = 'none'
  if (code && state && flag === 'true' && !hasToken) action = 'login'
  // Base scope, or already signed in (a phone login sent through /wechatLogin for login1): keep the open id.
  else if (code && state && (flag === 'false' || flag === 'true')) action = 'openid'
  return { action, code, state, cleanUrl }
}

export interface WechatReturnDeps {
  api: Pick<Api, 'post' | 'get'>
  store: Pick<AuthStore, 'getToken' | 'login' | 'update' | 'setOpenId'>
  /** Rewrites the address bar without a navigation (history.replaceState). */
  replaceUrl: (url: string) => void
  /** Tells the person why a sign-in failed (a toast). */
  notify?: (message: string) => void
}

export type WechatReturnResult = 'login' | 'openid' | 'none' | 'failed' | 'snapshot'

/** The server's answer to a code from snapshot mode (a page opened from Moments): 446. */
const SNAPSHOT_CODE = 446

/**
 * Finishes a return from WeChat: signs in or keeps the open id, then removes the one-time parameters from the
 * address bar (a code works once, and a shared link must not carry it). Failures were already shown by the
 * request wrapper's toast.
 */
export async function finishWechatReturn(href: string, deps: WechatReturnDeps): Promise<WechatReturnResult> {
  const found = parseWechatReturn(href, deps.store.getToken() !== null)
  if (!found) return 'none'
  deps.replaceUrl(found.cleanUrl)
  const body = { code: found.code, state: found.state }
  try {
    if (found.action === 'login') {
      const answer = await deps.api.post<{ token: string; expire_in: number; openid: string }>('/wx_login', body, {
        quiet: true,
      })
      deps.store.login(answer)
      const user = await deps.api.get<UserInfo>('/userinfo', undefined, { quiet: true }).catch(() => null)
      if (user) deps.store.update(user)
      return 'login'
    }
    if (found.action === 'openid') {
      // Nothing depends on it right away, so a failure stays quiet.
      const { openid } = await deps.api.post<{ openid: string }>('/wx_get_openid', body, { quiet: true })
      deps.store.setOpenId(openid)
      return 'openid'
    }
    return 'none'
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code === SNAPSHOT_CODE) return 'snapshot'
    // A failed sign-in says why (the open id alone fails quietly: nothing depends on it right away).
    if (found.action === 'login' && error instanceof Error && deps.notify) deps.notify(error.message)
    return 'failed'
  }
}

let handled: Promise<WechatReturnResult> | undefined

/**
 * Called once when the app starts in the browser (root). Repeated calls (React's strict mode runs effects twice)
 * share the first one, so a code is never sent twice.
 */
export function handleWechatReturn(location: string | { href: string } = window.location): Promise<WechatReturnResult> {
  handled ??= finishWechatReturn(typeof location === 'string' ? location : location.href, {
    api,
    store: authStore,
    replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
    notify: (message) => toast(message),
  })
  return handled
}
