import { authStore } from './auth-store.ts'
import { currentPath, showLogin } from './events.ts'
import { toast } from './toast.ts'

/**
 * The one request wrapper for calls from the browser (spec 7 and 8): paths under /api, GET by default, a JSON
 * body for POST/PUT/PATCH and query parameters otherwise, `ZXB-Token` when logged in, credentials sent, a 12 s
 * timeout, and `sp` plus `url` added to the payload whenever the visit has a promotion source.
 *
 * Answers (spec 8, and better): body code 200 gives `data`. 301/504 forget the login and raise showLogin with
 * the current path. Any other code toasts the server's message (or "请求错误"). Network failures, timeouts and
 * non-2xx statuses toast a clear message instead of failing silently.
 *
 * `api.get/post/…` return the data and throw an ApiError on failure (after the toast), so callers can show an
 * error state; `{ emptyOnError: true }` gives the spec's original behaviour (an empty object instead of the
 * throw); `api.request` never throws and returns a typed result.
 */

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type ApiPayload = Record<string, unknown> | FormData | undefined

export interface Envelope<T = unknown> {
  code: number
  msg: string
  data: T
}

/** Why a call failed: a business code, a request to log in again, an HTTP status, the network, the 12 s limit. */
export type ApiErrorKind = 'business' | 'login' | 'http' | 'network' | 'timeout' | 'aborted' | 'invalid'

export class ApiError extends Error {
  readonly kind: ApiErrorKind
  /** The body code when there was one (405, 301, …), else the HTTP status, else 0. */
  readonly code: number
  readonly status: number
  readonly data: unknown

  constructor(kind: ApiErrorKind, message: string, code: number, status: number, data: unknown = undefined) {
    super(message)
    this.name = 'ApiError'
    this.kind = kind
    this.code = code
    this.status = status
    this.data = data
  }
}

export type ApiResult<T> = { ok: true; data: T; msg: string } | { ok: false; error: ApiError }

export interface RequestOptions {
  /** No toast for failures (the caller shows its own message). 301/504 still open the login popup. */
  quiet?: boolean
  /** Spec 8's original behaviour: resolve to `{}` instead of throwing. */
  emptyOnError?: boolean
  /** Milliseconds before the call is abandoned; 12 s by default (spec 9). */
  timeoutMs?: number
  signal?: AbortSignal
  /** Extra request headers, e.g. an Idempotency-Key for calls that create orders. */
  headers?: Record<string, string>
}

const API_PREFIX = '/api'
const REQUEST_TIMEOUT_MS = 12_000
const LOGIN_CODES: readonly number[] = [301, 504]

const Messages = {
  generic: '请求错误',
  network: '网络不给力，请稍后重试',
  timeout: '请求超时，请稍后重试',
  http: (status: number) => `服务器开小差了（${status}），请稍后重试`,
} as const

export interface ApiDeps {
  fetch: typeof fetch
  getToken: () => string | null
  getSp: () => string | null
  /** The page address sent as `url` with `sp`. */
  pageUrl: () => string
  /** Where to come back to after logging in again. */
  pagePath: () => string
  notify: (message: string) => void
  /** 301/504: forget the stored login and ask for a new one. */
  onLoginRequired: (path: string) => void
  /** Origin for the calls; empty in the browser (same origin). */
  baseUrl?: string
}

function queryValue(v: unknown): string {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v)
  return JSON.stringify(v) ?? ''
}

function appendQuery(url: string, payload: Record<string, unknown>): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue
    for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) query.append(key, queryValue(v))
  }
  const qs = query.toString()
  if (!qs) return url
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).code === 'number'
}

export function createApi(deps: ApiDeps) {
  /** Sends one call and says how it went; never throws. The toast and login side effects happen here. */
  async function request<T>(
    method: ApiMethod,
    path: string,
    payload?: ApiPayload,
    options: RequestOptions = {},
  ): Promise<ApiResult<T>> {
    const fail = (error: ApiError): ApiResult<T> => {
      if (error.kind === 'login') deps.onLoginRequired(deps.pagePath())
      else if (!options.quiet && error.kind !== 'aborted') deps.notify(error.message)
      return { ok: false, error }
    }

    const sp = deps.getSp()
    const extra = sp ? { sp, url: deps.pageUrl() } : {}
    let url = `${deps.baseUrl ?? ''}${API_PREFIX}${path.startsWith('/') ? path : `/${path}`}`
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
    let body: BodyInit | undefined
    const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH'
    if (payload instanceof FormData) {
      // Multipart uploads carry sp/url in the query; the browser sets the multipart content type itself.
      url = appendQuery(url, extra)
      if (hasBody) body = payload
    } else if (hasBody) {
      headers['Content-Type'] = 'application/json; charset=utf-8'
      body = JSON.stringify({ ...payload, ...extra })
    } else {
      url = appendQuery(url, { ...payload, ...extra })
    }
    const token = deps.getToken()
    if (token) headers['ZXB-Token'] = token

    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, options.timeoutMs ?? REQUEST_TIMEOUT_MS)
    const onCallerAbort = () => controller.abort()
    options.signal?.addEventListener('abort', onCallerAbort)
    if (options.signal?.aborted) controller.abort()

    try {
      let res: Response
      try {
        res = await deps.fetch(url, { method, headers, body, credentials: 'include', signal: controller.signal })
      } catch {
        if (timedOut) return fail(new ApiError('timeout', Messages.timeout, 0, 0))
        if (options.signal?.aborted) return fail(new ApiError('aborted', '请求已取消', 0, 0))
        return fail(new ApiError('network', Messages.network, 0, 0))
      }
      let parsed: unknown
      try {
        parsed = await res.json()
      } catch {
        if (timedOut) return fail(new ApiError('timeout', Messages.timeout, 0, res.status))
        parsed = undefined
      }
      if (isEnvelope(parsed) && LOGIN_CODES.includes(parsed.code)) {
        return fail(new ApiError('login', parsed.msg || '请先登录', parsed.code, res.status, parsed.data))
      }
      if (!res.ok) {
        const msg = isEnvelope(parsed) && parsed.msg ? parsed.msg : Messages.http(res.status)
        return fail(
          new ApiError(
            'http',
            msg,
            isEnvelope(parsed) ? parsed.code : res.status,
            res.status,
            isEnvelope(parsed) ? parsed.data : undefined,
          ),
        )
      }
      if (!isEnvelope(parsed)) return fail(new ApiError('invalid', Messages.generic, 0, res.status))
      if (parsed.code === 200) return { ok: true, data: parsed.data as T, msg: parsed.msg }
      return fail(new ApiError('business', parsed.msg || Messages.generic, parsed.code, res.status, parsed.data))
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onCallerAbort)
    }
  }

  async function call<T>(
    method: ApiMethod,
    path: string,
    payload?: ApiPayload,
    options: RequestOptions = {},
  ): Promise<T> {
    const result = await request<T>(method, path, payload, options)
    if (result.ok) return result.data
    if (options.emptyOnError) return {} as T
    throw result.error
  }

  return {
    request,
    get: <T>(path: string, params?: Record<string, unknown>, options?: RequestOptions) =>
      call<T>('GET', path, params, options),
    post: <T>(path: string, body?: ApiPayload, options?: RequestOptions) => call<T>('POST', path, body, options),
    put: <T>(path: string, body?: ApiPayload, options?: RequestOptions) => call<T>('PUT', path, body, options),
    patch: <T>(path: string, body?: ApiPayload, options?: RequestOptions) => call<T>('PATCH', path, body, options),
    delete: <T>(path: string, params?: Record<string, unknown>, options?: RequestOptions) =>
      call<T>('DELETE', path, params, options),
  }
}

export type Api = ReturnType<typeof createApi>

/** The browser's wrapper: token and sp from the auth store, toasts on screen, the login popup on 301/504. */
export const api: Api = createApi({
  fetch: (...args) => globalThis.fetch(...args),
  getToken: () => authStore.getToken(),
  getSp: () => authStore.getSp(),
  pageUrl: () => (typeof window === 'undefined' ? '' : window.location.href),
  pagePath: currentPath,
  notify: (message) => toast(message),
  onLoginRequired(path) {
    authStore.logout()
    showLogin({ target: path })
  },
})

/** A readable message for an error caught around an api call. */
export function errorMessage(error: unknown, fallback: string = Messages.generic): string {
  if (error instanceof ApiError) return error.message
  return fallback
}
