import { z } from 'zod'
import {
  WechatErrcodes,
  WechatError,
  type WechatClient,
  type WechatOauthToken,
  type WechatUserInfo,
} from './wechat-client.ts'

export interface WechatHttpOptions {
  /** https://api.weixin.qq.com, or the simulator's base URL. */
  apiBase: string
  appId: string
  appSecret: string
  /** Injected so tests can route calls to an in-process simulator. */
  fetch?: typeof globalThis.fetch
  now?: () => Date
  timeoutMs?: number
}

const errorBody = z.object({ errcode: z.number().int(), errmsg: z.string().default('') })

const oauthTokenBody = z.object({
  access_token: z.string().min(1),
  expires_in: z.number(),
  refresh_token: z.string().default(''),
  openid: z.string().min(1),
  scope: z.string().default(''),
  unionid: z.string().min(1).optional(),
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

const accessTokenBody = z.object({ access_token: z.string().min(1), expires_in: z.number() })
const ticketBody = z.object({ ticket: z.string().min(1), expires_in: z.number() })

/** Refresh cached credentials this long before WeChat says they expire, so a call never carries a dying one. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000

interface Cached {
  value: string
  until: number
}

/**
 * The real WeChat adapter. Every answer is checked for `errcode` (WeChat reports failures with HTTP 200) and for
 * the fields we read; anything else becomes a WechatError with a null errcode.
 */
export function createWechatHttpClient(options: WechatHttpOptions): WechatClient {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const now = options.now ?? (() => new Date())
  const timeoutMs = options.timeoutMs ?? 5000
  const base = options.apiBase.replace(/\/$/, '')
  let accessToken: Cached | undefined
  let ticket: Cached | undefined
  // Concurrent share requests wait for one refresh instead of each fetching a token (WeChat limits those a day).
  let ticketInFlight: Promise<string> | undefined

  async function call<T extends z.ZodType>(
    path: string,
    params: Record<string, string>,
    schema: T,
  ): Promise<z.output<T>> {
    const url = `${base}${path}?${new URLSearchParams(params).toString()}`
    let text: string
    try {
      const res = await fetchImpl(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
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

  async function clientAccessToken(): Promise<string> {
    if (accessToken && accessToken.until > now().getTime()) return accessToken.value
    const body = await call(
      '/cgi-bin/token',
      { grant_type: 'client_credential', appid: options.appId, secret: options.appSecret },
      accessTokenBody,
    )
    accessToken = { value: body.access_token, until: now().getTime() + body.expires_in * 1000 - EXPIRY_MARGIN_MS }
    return body.access_token
  }

  async function fetchTicket(retried = false): Promise<string> {
    const token = await clientAccessToken()
    try {
      const body = await call('/cgi-bin/ticket/getticket', { access_token: token, type: 'jsapi' }, ticketBody)
      ticket = { value: body.ticket, until: now().getTime() + body.expires_in * 1000 - EXPIRY_MARGIN_MS }
      return body.ticket
    } catch (err) {
      // Another process (or a console test) may have fetched a new token, which kills ours: fetch one and retry once.
      const stale: number[] = [
        WechatErrcodes.invalidCredential,
        WechatErrcodes.accessTokenExpired,
        WechatErrcodes.invalidAccessToken,
      ]
      if (!retried && err instanceof WechatError && err.errcode !== null && stale.includes(err.errcode)) {
        accessToken = undefined
        return fetchTicket(true)
      }
      throw err
    }
  }

  return {
    appId: options.appId,

    async exchangeCode(code: string): Promise<WechatOauthToken> {
      const body = await call(
        '/sns/oauth2/access_token',
        { appid: options.appId, secret: options.appSecret, code, grant_type: 'authorization_code' },
        oauthTokenBody,
      )
      return {
        accessToken: body.access_token,
        expiresIn: body.expires_in,
        refreshToken: body.refresh_token,
        openid: body.openid,
        scope: body.scope,
        ...(body.unionid ? { unionid: body.unionid } : {}),
      }
    },

    async userInfo(token: string, openid: string): Promise<WechatUserInfo> {
      const body = await call('/sns/userinfo', { access_token: token, openid, lang: 'zh_CN' }, userInfoBody)
      const { unionid, ...rest } = body
      return unionid ? { ...rest, unionid } : rest
    },

    async jsapiTicket(): Promise<string> {
      if (ticket && ticket.until > now().getTime()) return ticket.value
      ticketInFlight ??= fetchTicket().finally(() => {
        ticketInFlight = undefined
      })
      return ticketInFlight
    },
  }
}
