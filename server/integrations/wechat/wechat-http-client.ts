import { z } from 'zod'
import {
  WechatErrcodes,
  WechatError,
  type WechatClient,
  type WechatOauthToken,
  type WechatUserInfo,
} from './wechat-client.ts'
import { memoryCredentialStore, type CredentialStore, type SharedCredential } from './credentials.ts'

export interface WechatHttpOptions {
  /** https://api.weixin.qq.com, or the simulator's base URL. */
  apiBase: string
  appId: string
  appSecret: string
  /** Injected so tests can route calls to an in-process simulator. */
  fetch?: typeof globalThis.fetch
  now?: () => Date
  timeoutMs?: number
  /** Where the access token and JS-SDK ticket are shared between processes; default: this process's memory. */
  credentials?: CredentialStore
}

const errorBody = z.object({ errcode: z.number().int(), errmsg: z.string().default('') })

const oauthTokenBody = z.object({
  access_token: z.string().min(1),
  expires_in: z.number(),
  refresh_token: z.string().default(''),
  openid: z.string().min(1),
  scope: z.string().default(''),
  unionid: z.string().min(1).optional(),
  is_snapshotuser: z.number().int().optional(),
})

const userInfoBody = z.object({
  openid: z.string().min(1),
  nickname: z.string().default(''),
  sex: z.number().int().default(0),
  province: z.string().default(''),
  city: z.string().default(''),
  country: z.string().default(''),
  headimgurl: z.string().default(''),
  privilege: z.array(z.string()).default([]),
  unionid: z.string().min(1).optional(),
})

const subscribeBody = z.object({ subscribe: z.number().optional() })
const accessTokenBody = z.object({ access_token: z.string().min(1), expires_in: z.number() })
const ticketBody = z.object({ ticket: z.string().min(1), expires_in: z.number() })

/** Refresh shared credentials this long before WeChat says they expire, so a call never carries a dying one. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000

/** WeChat's answers to a call with an access token it no longer takes (another process forced a new one). */
const staleTokenCodes: number[] = [
  WechatErrcodes.invalidCredential,
  WechatErrcodes.accessTokenExpired,
  WechatErrcodes.invalidAccessToken,
]
const isStaleToken = (err: unknown) =>
  err instanceof WechatError && err.errcode !== null && staleTokenCodes.includes(err.errcode)

/**
 * The real WeChat adapter. Every answer is checked for `errcode` (WeChat reports failures with HTTP 200) and for
 * the fields we read; anything else becomes a WechatError with a null errcode.
 *
 * The access token comes from `POST /cgi-bin/stable_token` (normal mode: asking again while it is valid returns the
 * same token and never invalidates the one other processes hold; `cgi-bin/token` would). It and the JS-SDK ticket
 * are shared through `credentials` (PostgreSQL in the server): one process fetches, under a lock, five minutes
 * before expiry; every process reads the stored value and keeps a copy until then.
 */
export function createWechatHttpClient(options: WechatHttpOptions): WechatClient {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.timeoutMs ?? 5000
  const base = options.apiBase.replace(/\/$/, '')
  const credentials = options.credentials ?? memoryCredentialStore()
  const tokenName = `wechat:${options.appId}:access_token`
  const ticketName = `wechat:${options.appId}:jsapi_ticket`
  const copies = new Map<string, SharedCredential>()
  // Concurrent share requests of this process wait for one look-up instead of each opening a refresh.
  const inFlight = new Map<string, Promise<string>>()

  async function call<T extends z.ZodType>(
    path: string,
    request: { query?: Record<string, string>; json?: Record<string, unknown> },
    schema: T,
  ): Promise<z.output<T>> {
    const url = `${base}${path}${request.query ? `?${new URLSearchParams(request.query).toString()}` : ''}`
    let text: string
    try {
      const res = await fetchImpl(url, {
        signal: AbortSignal.timeout(timeoutMs),
        ...(request.json
          ? {
              method: 'POST',
              headers: { accept: 'application/json', 'content-type': 'application/json' },
              body: JSON.stringify(request.json),
            }
          : { headers: { accept: 'application/json' } }),
      })
      text = await res.text()
      if (!res.ok) throw new WechatError(null, `HTTP ${res.status} from ${path}`)
    } catch (err) {
      if (err instanceof WechatError) throw err
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error'
      throw new WechatError(null, `${reason} calling ${path}`)
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new WechatError(null, `non-JSON answer from ${path}`)
    }
    const failure = errorBody.safeParse(json)
    if (failure.success && failure.data.errcode !== 0) throw new WechatError(failure.data.errcode, failure.data.errmsg)
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new WechatError(null, `unexpected answer from ${path}`)
    return parsed.data
  }

  const usable = (c: SharedCredential | null, stale?: string): c is SharedCredential =>
    c !== null && c.value !== stale && c.expiresAt.getTime() - EXPIRY_MARGIN_MS > now().getTime()
  const expiry = (seconds: number) => new Date(now().getTime() + seconds * 1000)

  /** This process's copy, else the stored value, else one refresh for the whole site. */
  function shared(name: string, fetch: () => Promise<SharedCredential>, stale?: string): Promise<string> {
    const copy = copies.get(name)
    if (usable(copy ?? null, stale)) return Promise.resolve(copy!.value)
    const key = `${name}|${stale ?? ''}`
    let pending = inFlight.get(key)
    if (!pending) {
      pending = (async () => {
        let found = await credentials.read(name)
        if (!usable(found, stale)) found = await credentials.refresh(name, (c) => usable(c, stale), fetch)
        copies.set(name, found)
        return found.value
      })().finally(() => inFlight.delete(key))
      inFlight.set(key, pending)
    }
    return pending
  }

  /** Normal mode: WeChat hands out the valid token (a new one in its last five minutes), never killing others'. */
  async function stableToken() {
    const json = {
      grant_type: 'client_credential',
      appid: options.appId,
      secret: options.appSecret,
      force_refresh: false,
    }
    const body = await call('/cgi-bin/stable_token', { json }, accessTokenBody)
    return { value: body.access_token, expiresAt: expiry(body.expires_in) }
  }

  /** The shared access token; `stale`: one WeChat just refused, never handed out again. */
  function accessToken(stale?: string) {
    return shared(tokenName, stableToken, stale)
  }

  /** The shared JS-SDK ticket; the token is fetched only when the ticket must be (inside the ticket's refresh). */
  async function ticket(retried = false): Promise<string> {
    let used: string | undefined
    try {
      return await shared(ticketName, async () => {
        used = await accessToken()
        const query = { access_token: used, type: 'jsapi' }
        const body = await call('/cgi-bin/ticket/getticket', { query }, ticketBody)
        return { value: body.ticket, expiresAt: expiry(body.expires_in) }
      })
    } catch (err) {
      if (retried || used === undefined || !isStaleToken(err)) throw err
      await accessToken(used)
      return ticket(true)
    }
  }

  /** A call with the shared access token, once again with a fresh one when WeChat calls the token stale. */
  async function withToken<T>(use: (token: string) => Promise<T>, stale?: string): Promise<T> {
    const token = await accessToken(stale)
    try {
      return await use(token)
    } catch (err) {
      if (stale !== undefined || !isStaleToken(err)) throw err
      return withToken(use, token)
    }
  }

  return {
    appId: options.appId,

    async exchangeCode(code: string): Promise<WechatOauthToken> {
      const body = await call(
        '/sns/oauth2/access_token',
        { query: { appid: options.appId, secret: options.appSecret, code, grant_type: 'authorization_code' } },
        oauthTokenBody,
      )
      return {
        accessToken: body.access_token,
        expiresIn: body.expires_in,
        refreshToken: body.refresh_token,
        openid: body.openid,
        scope: body.scope,
        ...(body.unionid ? { unionid: body.unionid } : {}),
        ...(body.is_snapshotuser === 1 ? { isSnapshotUser: true } : {}),
      }
    },

    async userInfo(token: string, openid: string): Promise<WechatUserInfo> {
      const body = await call('/sns/userinfo', { query: { access_token: token, openid, lang: 'zh_CN' } }, userInfoBody)
      const { unionid, ...rest } = body
      return unionid ? { ...rest, unionid } : rest
    },

    jsapiTicket(): Promise<string> {
      return ticket()
    },

    // Not confirmed from the official docs: whether `subscribe` can be absent for an openid of another account
    // (WeChat answers 40003 invalid openid there, which throws); an answer without it reads as not following.
    async subscribed(openid: string): Promise<boolean> {
      const body = await withToken((token) =>
        call('/cgi-bin/user/info', { query: { access_token: token, openid, lang: 'zh_CN' } }, subscribeBody),
      )
      return body.subscribe === 1
    },
  }
}
