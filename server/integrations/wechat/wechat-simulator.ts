import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { registerJsSdkStandIn } from './wechat-simulator-jssdk.ts'
import { WechatErrcodes } from './wechat-client.ts'
import { renderConsentPage, renderErrorPage } from './wechat-simulator-pages.ts'
import {
  registerCredentialRoutes,
  sendJson,
  wxError,
  type ClientCredentialState,
} from './wechat-simulator-credentials.ts'

/**
 * A local stand-in for WeChat's Official Account OAuth and JS-SDK endpoints, for development, the demo and the
 * tests. It speaks WeChat's wire format and error codes, so the real HTTP adapter is what talks to it. State lives
 * in memory: restarting the server forgets codes and tokens, as a simulator may.
 */

export interface SimulatedUser {
  key: string
  nickname: string
  sex: number
  province: string
  city: string
  /** Whether the app's Official Account is bound to an Open Platform account for this user (then unionid is sent). */
  hasUnionid: boolean
}

/** The test WeChat users the consent page offers; the first one is the default (also for the silent base scope). */
const simulatedUsers: readonly SimulatedUser[] = [
  { key: 'test-user', nickname: '微信测试用户', sex: 1, province: '广东', city: '深圳', hasUnionid: true },
  { key: 'lina', nickname: '李娜', sex: 2, province: '浙江', city: '杭州', hasUnionid: true },
  { key: 'xiaoyu', nickname: '小雨🌧', sex: 2, province: '四川', city: '成都', hasUnionid: true },
  { key: 'no-unionid', nickname: '未绑定开放平台的用户', sex: 0, province: '', city: '', hasUnionid: false },
]

const CUSTOM_PREFIX = 'n:'
const NICKNAME_MAX = 32

/** A preset user by key, or the user a typed-in nickname stands for (`n:<nickname>`). */
function simulatedUser(key: string): SimulatedUser | undefined {
  const preset = simulatedUsers.find((u) => u.key === key)
  if (preset) return preset
  if (!key.startsWith(CUSTOM_PREFIX)) return undefined
  const nickname = key.slice(CUSTOM_PREFIX.length).trim()
  if (!nickname || [...nickname].length > NICKNAME_MAX) return undefined
  return { key, nickname, sex: 0, province: '', city: '', hasUnionid: true }
}

function digest(input: string) {
  return crypto
    .createHash('sha256')
    .update(input)
    .digest('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
}

/** WeChat gives each user a different openid per Official Account, and one unionid across the Open Platform. */
export function simulatedIdentity(appId: string, userKey: string) {
  const user = simulatedUser(userKey)
  return {
    openid: `o${digest(`openid|${appId}|${userKey}`).slice(0, 27)}`,
    unionid: user?.hasUnionid ? `ou${digest(`unionid|${userKey}`).slice(0, 26)}` : undefined,
  }
}

/**
 * The simulator's stand-in for a page opened from Moments in snapshot mode: while this cookie is set (GET
 * /snapshot?on=1), every authorization returns at once with a code whose exchange says `is_snapshotuser: 1` and
 * gives a virtual openid, as WeChat does before the user taps "使用完整服务".
 */
const SNAPSHOT_COOKIE = 'wxsim_snapshot'
const SNAPSHOT_USER = 'snapshot-virtual'

interface IssuedCode {
  userKey: string
  scope: string
  expiresAt: number
  used: boolean
}

interface IssuedToken {
  userKey: string
  openid: string
  scope: string
  expiresAt: number
}

export interface WechatSimulatorState extends ClientCredentialState {
  codes: Map<string, IssuedCode>
  snsTokens: Map<string, IssuedToken>
}

export function createWechatSimulatorState(): WechatSimulatorState {
  return {
    codes: new Map(),
    snsTokens: new Map(),
    clientTokens: new Map(),
    stableTokens: new Map(),
    stable: { current: undefined, lastForcedAt: 0 },
    followers: new Set(),
    retired: new Set(),
    ticket: undefined,
  }
}

export interface WechatSimulatorOptions {
  appId: string
  appSecret: string
  /** Host names allowed in `redirect_uri` (the Official Account's "网页授权域名"). */
  redirectHosts: string[]
  /** Where browsers reach this simulator, for the avatar URLs it hands out. */
  publicBase: string
  now: () => Date
  state?: WechatSimulatorState
}

const CODE_TTL_MS = 5 * 60 * 1000
const TOKEN_TTL_S = 7200
const USER_COOKIE = 'wxsim_user'

type Query = Record<string, string | undefined>

function sendHtml(reply: FastifyReply, html: string) {
  return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html)
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? ''
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='))
      } catch {
        return undefined
      }
    }
  }
  return undefined
}

function prune(map: Map<string, { expiresAt: number }>, now: number) {
  if (map.size < 500) return
  for (const [k, v] of map) if (v.expiresAt <= now) map.delete(k)
}

export interface AuthorizeRequest {
  appid: string
  redirectUri: URL
  scope: 'snsapi_base' | 'snsapi_userinfo'
  state: string
}

/** Checks an authorize request the way WeChat's authorize page does; the error is what WeChat's page would show. */
export function checkAuthorize(
  q: Query,
  opts: Pick<WechatSimulatorOptions, 'appId' | 'redirectHosts'>,
): { ok: true; value: AuthorizeRequest } | { ok: false; code: number | null; message: string } {
  if (!q.appid) return { ok: false, code: 10012, message: 'appid不能为空' }
  if (q.appid !== opts.appId) return { ok: false, code: WechatErrcodes.invalidAppid, message: 'invalid appid' }
  if (!q.redirect_uri) return { ok: false, code: 10011, message: 'redirect_uri不能为空' }
  let redirectUri: URL
  try {
    redirectUri = new URL(q.redirect_uri)
  } catch {
    return { ok: false, code: 10003, message: 'redirect_uri域名与后台配置不一致' }
  }
  if (!/^https?:$/.test(redirectUri.protocol) || !opts.redirectHosts.includes(redirectUri.hostname)) {
    return { ok: false, code: 10003, message: 'redirect_uri域名与后台配置不一致' }
  }
  if (q.response_type !== 'code') return { ok: false, code: null, message: '参数错误：response_type 必须为 code' }
  if (!q.scope) return { ok: false, code: 10010, message: 'scope不能为空' }
  if (q.scope !== 'snsapi_base' && q.scope !== 'snsapi_userinfo')
    return { ok: false, code: 10005, message: '此公众号并没有这些scope的权限' }
  if (!q.state) return { ok: false, code: 10013, message: 'state不能为空' }
  if (q.state.length > 128 || !/^[A-Za-z0-9]+$/.test(q.state))
    return { ok: false, code: null, message: '参数错误：state 只能是字母和数字，最长 128 字节' }
  return { ok: true, value: { appid: q.appid, redirectUri, scope: q.scope, state: q.state } }
}

function redirectBack(reply: FastifyReply, target: URL, params: Record<string, string>) {
  const url = new URL(target)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return reply.redirect(url.toString(), 302)
}

function avatarColor(key: string) {
  const hue = crypto.createHash('md5').update(key).digest()[0]! * (360 / 256)
  return `hsl(${Math.round(hue)} 55% 52%)`
}

function escapeXml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Fastify plugin: register with a prefix (server/app.ts mounts it at /__sim/wechat when no AppID is configured). */
export async function wechatSimulator(app: FastifyInstance, opts: WechatSimulatorOptions) {
  const state = opts.state ?? createWechatSimulatorState()
  const now = () => opts.now().getTime()
  const cookiePath = app.prefix || '/'
  const publicBase = opts.publicBase.replace(/\/$/, '')

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
    },
  )
  app.setErrorHandler((error, request, reply) => {
    request.log.warn({ err: error }, 'wechat simulator failed')
    return sendJson(reply, wxError(WechatErrcodes.systemBusy, 'system error'))
  })

  const hidden = { schema: { hide: true } }

  function avatarUrl(user: SimulatedUser) {
    return `${publicBase}/avatar/${encodeURIComponent(user.key)}.svg`
  }

  function issueCode(userKey: string, scope: string) {
    prune(state.codes, now())
    const code = crypto.randomBytes(16).toString('hex')
    state.codes.set(code, { userKey, scope, expiresAt: now() + CODE_TTL_MS, used: false })
    return code
  }

  app.get('/connect/oauth2/authorize', hidden, async (request, reply) => {
    const checked = checkAuthorize(request.query as Query, opts)
    if (!checked.ok) return sendHtml(reply, renderErrorPage(checked.code, checked.message))
    const ua = request.headers['user-agent'] ?? ''
    if (!/MicroMessenger/i.test(ua)) return sendHtml(reply, renderErrorPage(null, '请在微信客户端打开链接'))
    const { redirectUri, scope, state: oauthState } = checked.value
    const remembered = simulatedUser(readCookie(request, USER_COOKIE) ?? '')
    if (readCookie(request, SNAPSHOT_COOKIE) === '1') {
      return redirectBack(reply, redirectUri, { code: issueCode(SNAPSHOT_USER, 'snsapi_base'), state: oauthState })
    }
    if (scope === 'snsapi_base') {
      // The base scope never asks: WeChat already knows who is looking.
      const user = remembered ?? simulatedUsers[0]!
      return redirectBack(reply, redirectUri, { code: issueCode(user.key, scope), state: oauthState })
    }
    return sendHtml(
      reply,
      renderConsentPage({
        query: { appid: checked.value.appid, redirect_uri: redirectUri.toString(), scope, state: oauthState },
        users: simulatedUsers.map((u) => ({ key: u.key, nickname: u.nickname, avatar: avatarUrl(u) })),
        selectedKey: remembered?.key ?? simulatedUsers[0]!.key,
        appName: '自学',
      }),
    )
  })

  app.post('/connect/oauth2/authorize/confirm', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Query
    const checked = checkAuthorize({ ...form, response_type: 'code' }, opts)
    if (!checked.ok) return sendHtml(reply, renderErrorPage(checked.code, checked.message))
    const { redirectUri, scope, state: oauthState } = checked.value
    if (form.action !== 'allow') return redirectBack(reply, redirectUri, { state: oauthState })
    const key = form.user === 'custom' ? `${CUSTOM_PREFIX}${(form.nickname ?? '').trim()}` : (form.user ?? '')
    const user = simulatedUser(key)
    if (!user)
      return sendHtml(reply, renderErrorPage(null, `请选择一个测试用户，或输入 1 到 ${NICKNAME_MAX} 个字的昵称`))
    reply.header(
      'set-cookie',
      `${USER_COOKIE}=${encodeURIComponent(user.key)}; Path=${cookiePath}; Max-Age=31536000; HttpOnly; SameSite=Lax`,
    )
    return redirectBack(reply, redirectUri, { code: issueCode(user.key, scope), state: oauthState })
  })

  registerJsSdkStandIn(app, { appId: opts.appId, ticket: () => state.ticket?.value })

  app.get('/snapshot', hidden, async (request, reply) => {
    const on = (request.query as Query).on === '1'
    reply.header(
      'set-cookie',
      `${SNAPSHOT_COOKIE}=${on ? '1' : ''}; Path=${cookiePath}; Max-Age=${on ? 86400 : 0}; HttpOnly; SameSite=Lax`,
    )
    return reply.type('text/plain; charset=utf-8').send(on ? '快照页模式：开' : '快照页模式：关')
  })

  app.get('/avatar/:file', hidden, async (request, reply) => {
    const file = (request.params as { file: string }).file
    const user = simulatedUser(file.replace(/\.svg$/, ''))
    if (!user) return reply.code(404).type('text/plain').send('not found')
    const initial = escapeXml([...user.nickname][0] ?? '微')
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="132" height="132" viewBox="0 0 132 132"><rect width="132" height="132" fill="${avatarColor(user.key)}"/><text x="66" y="66" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="60" fill="#fff">${initial}</text></svg>`
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg)
  })

  function checkApp(q: Query) {
    if (!q.appid) return wxError(WechatErrcodes.missingAppid, 'appid missing')
    if (q.appid !== opts.appId) return wxError(WechatErrcodes.invalidAppid, 'invalid appid')
    if (!q.secret) return wxError(WechatErrcodes.missingAppsecret, 'appsecret missing')
    if (q.secret !== opts.appSecret) return wxError(WechatErrcodes.invalidAppsecret, 'invalid appsecret')
    return undefined
  }

  app.get('/sns/oauth2/access_token', hidden, async (request, reply) => {
    const q = request.query as Query
    const appProblem = checkApp(q)
    if (appProblem) return sendJson(reply, appProblem)
    if (q.grant_type !== 'authorization_code')
      return sendJson(reply, wxError(WechatErrcodes.invalidGrantType, 'invalid grant_type'))
    if (!q.code) return sendJson(reply, wxError(WechatErrcodes.missingCode, 'missing code'))
    const issued = state.codes.get(q.code)
    if (!issued) return sendJson(reply, wxError(WechatErrcodes.invalidCode, 'invalid code'))
    if (issued.used) return sendJson(reply, wxError(WechatErrcodes.codeBeenUsed, 'code been used'))
    if (issued.expiresAt <= now()) return sendJson(reply, wxError(WechatErrcodes.codeExpired, 'code expired'))
    issued.used = true
    const snapshot = issued.userKey === SNAPSHOT_USER
    const { openid, unionid } = snapshot
      ? { openid: `o_snapshot_${crypto.randomBytes(8).toString('hex')}`, unionid: undefined }
      : simulatedIdentity(opts.appId, issued.userKey)
    const accessToken = crypto.randomBytes(48).toString('base64url')
    prune(state.snsTokens, now())
    state.snsTokens.set(accessToken, {
      userKey: issued.userKey,
      openid,
      scope: issued.scope,
      expiresAt: now() + TOKEN_TTL_S * 1000,
    })
    return sendJson(reply, {
      access_token: accessToken,
      expires_in: TOKEN_TTL_S,
      refresh_token: crypto.randomBytes(48).toString('base64url'),
      openid,
      scope: issued.scope,
      ...(unionid ? { unionid } : {}),
      ...(snapshot ? { is_snapshotuser: 1 } : {}),
    })
  })

  app.get('/sns/userinfo', hidden, async (request, reply) => {
    const q = request.query as Query
    if (!q.access_token) return sendJson(reply, wxError(WechatErrcodes.missingAccessToken, 'access_token missing'))
    const token = state.snsTokens.get(q.access_token)
    if (!token)
      return sendJson(
        reply,
        wxError(WechatErrcodes.invalidCredential, 'invalid credential, access_token is invalid or not latest'),
      )
    if (token.expiresAt <= now())
      return sendJson(reply, wxError(WechatErrcodes.accessTokenExpired, 'access_token expired'))
    if (q.openid !== token.openid) return sendJson(reply, wxError(WechatErrcodes.invalidOpenid, 'invalid openid'))
    if (!token.scope.split(',').includes('snsapi_userinfo'))
      return sendJson(reply, wxError(WechatErrcodes.apiUnauthorized, 'api unauthorized'))
    const user = simulatedUser(token.userKey)!
    const { unionid } = simulatedIdentity(opts.appId, user.key)
    return sendJson(reply, {
      openid: token.openid,
      nickname: user.nickname,
      sex: user.sex,
      language: q.lang ?? 'zh_CN',
      city: user.city,
      province: user.province,
      country: user.province ? '中国' : '',
      headimgurl: avatarUrl(user),
      privilege: [],
      ...(unionid ? { unionid } : {}),
    })
  })

  registerCredentialRoutes(app, { state, now, checkApp })
}
