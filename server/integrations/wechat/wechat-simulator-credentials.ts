import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { WechatErrcodes } from './wechat-client.ts'

/**
 * The simulator's client-credential endpoints: `GET /cgi-bin/token`, `POST /cgi-bin/stable_token` and the JS-SDK
 * ticket, with WeChat's rules on which token stays valid when another is fetched.
 */

const TOKEN_TTL_S = 7200
/** After a new token, the previous one keeps working this long (WeChat: "5分钟内新老 access_token 都可用"). */
const OLD_TOKEN_GRACE_MS = 5 * 60 * 1000
/** stable_token normal mode hands out a new token once the current one has less than this left. */
const STABLE_RENEW_BEFORE_MS = 5 * 60 * 1000
/** stable_token's forced refresh: at most once every 30 s (and 20 times a day, not simulated). */
const FORCE_REFRESH_INTERVAL_MS = 30 * 1000

type Query = Record<string, string | undefined>

export function wxError(errcode: number, errmsg: string) {
  return { errcode, errmsg: `${errmsg} rid: ${crypto.randomBytes(6).toString('hex')}` }
}

export function sendJson(reply: FastifyReply, body: unknown) {
  // WeChat answers every API call, failures included, with HTTP 200 and this content type.
  return reply.code(200).type('application/json; encoding=utf-8').send(JSON.stringify(body))
}

/** What the simulator remembers of the client-credential tokens and the JS-SDK ticket. */
export interface ClientCredentialState {
  /** Tokens of `GET /cgi-bin/token`, with when each stops working. */
  clientTokens: Map<string, number>
  /** Tokens of `POST /cgi-bin/stable_token` (a separate family: neither endpoint touches the other's tokens). */
  stableTokens: Map<string, number>
  /** The stable token normal mode hands out, and when the last forced refresh was. */
  stable: { current: string | undefined; lastForcedAt: number }
  /** Tokens replaced by a newer one: once their grace period ends WeChat calls them invalid (40001), not expired. */
  retired: Set<string>
  ticket: { value: string; expiresAt: number } | undefined
  /** The openids that follow the Official Account (`POST /cgi-bin/sim/follow` sets them; `user/info` reads them). */
  followers: Set<string>
}

interface CredentialRouteDeps {
  state: ClientCredentialState
  now: () => number
  /** The appid/secret check every credential endpoint makes, or undefined when they are right. */
  checkApp: (q: Query) => ReturnType<typeof wxError> | undefined
}

export function registerCredentialRoutes(app: FastifyInstance, deps: CredentialRouteDeps) {
  const { state, now, checkApp } = deps
  const hidden = { schema: { hide: true } }

  function issueClientToken(family: Map<string, number>) {
    const token = crypto.randomBytes(48).toString('base64url')
    for (const [k, until] of family) {
      if (until > now()) continue
      family.delete(k)
      state.retired.delete(k)
    }
    family.set(token, now() + TOKEN_TTL_S * 1000)
    return token
  }

  /** The previous tokens of a family stop working after the grace period (or sooner, at their own expiry). */
  function retire(family: Map<string, number>, except: string) {
    for (const [k, until] of family) {
      if (k === except) continue
      family.set(k, Math.min(until, now() + OLD_TOKEN_GRACE_MS))
      state.retired.add(k)
    }
  }

  // Every call makes a new token and retires the previous ones: two processes calling it break each other.
  app.get('/cgi-bin/token', hidden, async (request, reply) => {
    const q = request.query as Query
    if (q.grant_type !== 'client_credential')
      return sendJson(reply, wxError(WechatErrcodes.invalidGrantType, 'invalid grant_type'))
    const appProblem = checkApp(q)
    if (appProblem) return sendJson(reply, appProblem)
    const token = issueClientToken(state.clientTokens)
    retire(state.clientTokens, token)
    return sendJson(reply, { access_token: token, expires_in: TOKEN_TTL_S })
  })

  // Normal mode returns the valid token (a new one only in its last 5 minutes, the old one still working until it
  // expires); force_refresh invalidates the previous token at once. JSON body only, like WeChat.
  app.post('/cgi-bin/stable_token', hidden, async (request, reply) => {
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return sendJson(reply, wxError(47001, 'data format error'))
    const b = body as Record<string, unknown>
    const q: Query = {
      appid: typeof b.appid === 'string' ? b.appid : undefined,
      secret: typeof b.secret === 'string' ? b.secret : undefined,
    }
    if (b.grant_type !== 'client_credential')
      return sendJson(reply, wxError(WechatErrcodes.invalidGrantType, 'invalid grant_type'))
    const appProblem = checkApp(q)
    if (appProblem) return sendJson(reply, appProblem)
    const family = state.stableTokens
    const current = state.stable.current
    const until = current === undefined ? undefined : family.get(current)
    if (b.force_refresh === true) {
      // Not confirmed in WeChat's documentation: the errcode of a forced refresh within 30 s of the last one.
      if (now() - state.stable.lastForcedAt < FORCE_REFRESH_INTERVAL_MS)
        return sendJson(reply, wxError(WechatErrcodes.apiFreqOutOfLimit, 'force refresh too frequent'))
      state.stable.lastForcedAt = now()
      if (current !== undefined) {
        family.delete(current)
        state.retired.add(current)
      }
    } else if (current !== undefined && until !== undefined && until - now() > STABLE_RENEW_BEFORE_MS) {
      return sendJson(reply, { access_token: current, expires_in: Math.floor((until - now()) / 1000) })
    }
    const token = issueClientToken(family)
    state.stable.current = token
    return sendJson(reply, { access_token: token, expires_in: TOKEN_TTL_S })
  })

  /** WeChat's refusal of a client-credential access token, or undefined when it is good now. */
  function tokenRefusal(token: string | undefined) {
    if (!token) return wxError(WechatErrcodes.missingAccessToken, 'access_token missing')
    const until = state.clientTokens.get(token) ?? state.stableTokens.get(token)
    if (until === undefined || (until <= now() && state.retired.has(token)))
      return wxError(WechatErrcodes.invalidCredential, 'invalid credential, access_token is invalid or not latest')
    if (until <= now()) return wxError(WechatErrcodes.accessTokenExpired, 'access_token expired')
    return undefined
  }

  app.get('/cgi-bin/ticket/getticket', hidden, async (request, reply) => {
    const q = request.query as Query
    const refused = tokenRefusal(q.access_token)
    if (refused) return sendJson(reply, refused)
    if (q.type !== 'jsapi') return sendJson(reply, wxError(40097, 'invalid args'))
    if (!state.ticket || state.ticket.expiresAt <= now()) {
      state.ticket = { value: crypto.randomBytes(42).toString('base64url'), expiresAt: now() + TOKEN_TTL_S * 1000 }
    }
    const expiresIn = Math.floor((state.ticket.expiresAt - now()) / 1000)
    return sendJson(reply, { errcode: 0, errmsg: 'ok', ticket: state.ticket.value, expires_in: expiresIn })
  })

  // The Official Account's user info (cgi-bin/user/info): `subscribe` 1 for a follower, else 0 and nothing more
  // (WeChat: "值为0时，代表此用户没有关注该公众号，拉取不到其余信息").
  app.get('/cgi-bin/user/info', hidden, async (request, reply) => {
    const q = request.query as Query
    const refused = tokenRefusal(q.access_token)
    if (refused) return sendJson(reply, refused)
    if (!q.openid || !/^[\w-]{6,64}$/.test(q.openid))
      return sendJson(reply, wxError(WechatErrcodes.invalidOpenid, 'invalid openid'))
    if (!state.followers.has(q.openid)) return sendJson(reply, { subscribe: 0, openid: q.openid })
    return sendJson(reply, {
      subscribe: 1,
      openid: q.openid,
      subscribe_time: Math.floor(now() / 1000),
      remark: '',
      groupid: 0,
      tagid_list: [],
      subscribe_scene: 'ADD_SCENE_QR_CODE',
      qr_scene: 0,
      qr_scene_str: '',
    })
  })

  // Simulator only (no such WeChat endpoint): a test user follows or unfollows the Official Account, as scanning the
  // follow QR in WeChat would.
  app.post('/cgi-bin/sim/follow', hidden, async (request, reply) => {
    const body = (request.body ?? {}) as { openid?: unknown; follow?: unknown }
    if (typeof body.openid !== 'string') return sendJson(reply, wxError(WechatErrcodes.invalidOpenid, 'invalid openid'))
    if (body.follow === false) state.followers.delete(body.openid)
    else state.followers.add(body.openid)
    return sendJson(reply, { errcode: 0, errmsg: 'ok' })
  })
}
