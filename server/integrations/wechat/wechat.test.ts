import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { memoryCredentialStore } from './credentials.ts'
import { jsSdkSignature } from './js-sdk.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { WechatError, type WechatClient } from './wechat-client.ts'
import { createWechatHttpClient, type WechatHttpOptions } from './wechat-http-client.ts'
import { checkAuthorize, createWechatSimulatorState, simulatedIdentity, wechatSimulator } from './wechat-simulator.ts'

const APP_ID = 'wx_test_app'
const SECRET = 'test_secret'
const WECHAT_UA = 'Mozilla/5.0 (iPhone) Mobile/15E148 MicroMessenger/8.0.61 NetType/WIFI Language/zh_CN'

let clock = Date.now()
let sim: FastifyInstance
const simState = createWechatSimulatorState()
const calls: string[] = []

function client(overrides: Partial<WechatHttpOptions> = {}): WechatClient {
  return createWechatHttpClient({
    apiBase: 'http://sim.test/sim',
    appId: APP_ID,
    appSecret: SECRET,
    now: () => new Date(clock),
    fetch: injectFetch(
      () => sim,
      (url) => calls.push(url.pathname),
    ),
    ...overrides,
  })
}

/** Goes through the consent page as a person would and returns the code WeChat puts on the return address. */
async function issueCode(scope: 'snsapi_base' | 'snsapi_userinfo' = 'snsapi_userinfo', user = 'test-user') {
  const query = { appid: APP_ID, redirect_uri: 'https://zixue.test/mine?loginCallback=true', scope, state: 'abc123' }
  const res =
    scope === 'snsapi_base'
      ? await sim.inject({
          method: 'GET',
          url: '/sim/connect/oauth2/authorize',
          query: { ...query, response_type: 'code' },
          headers: { 'user-agent': WECHAT_UA },
        })
      : await sim.inject({
          method: 'POST',
          url: '/sim/connect/oauth2/authorize/confirm',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': WECHAT_UA },
          payload: new URLSearchParams({ ...query, user, action: 'allow' }).toString(),
        })
  expect(res.statusCode).toBe(302)
  const code = new URL(res.headers.location!).searchParams.get('code')
  expect(code).toMatch(/^[0-9a-f]{32}$/)
  return code!
}

async function rejection(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(WechatError)
  return err as WechatError
}

beforeAll(async () => {
  sim = Fastify({ logger: false })
  await sim.register(wechatSimulator, {
    prefix: '/sim',
    appId: APP_ID,
    appSecret: SECRET,
    redirectHosts: ['zixue.test'],
    publicBase: 'https://zixue.test/sim',
    now: () => new Date(clock),
    state: simState,
  })
  await sim.ready()
})

afterAll(async () => {
  await sim.close()
})

beforeEach(() => {
  clock = Date.now()
  calls.length = 0
})

describe('jsSdkSignature', () => {
  it('matches the example of the WeChat JS-SDK documentation', () => {
    expect(
      jsSdkSignature({
        ticket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
        nonceStr: 'Wm3WZYTPz0wzccnW',
        timestamp: 1414587457,
        url: 'http://mp.weixin.qq.com?params=value',
      }),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed')
  })

  it('signs the address without its #fragment', () => {
    const base = { ticket: 't', nonceStr: 'n', timestamp: 1 }
    expect(jsSdkSignature({ ...base, url: 'https://a.test/x?y=1#z' })).toBe(
      jsSdkSignature({ ...base, url: 'https://a.test/x?y=1' }),
    )
  })
})

describe('WeChat adapter: code exchange', () => {
  it('exchanges a user-info code for the openid, unionid and scope', async () => {
    const token = await client().exchangeCode(await issueCode())
    const expected = simulatedIdentity(APP_ID, 'test-user')
    expect(token).toMatchObject({
      openid: expected.openid,
      unionid: expected.unionid,
      scope: 'snsapi_userinfo',
      expiresIn: 7200,
    })
    expect(token.accessToken.length).toBeGreaterThan(40)
  })

  it('sends no unionid for a user whose account is not on the Open Platform', async () => {
    const token = await client().exchangeCode(await issueCode('snsapi_userinfo', 'no-unionid'))
    expect(token.unionid).toBeUndefined()
  })

  it('reports 40163 when a code is used twice', async () => {
    const code = await issueCode()
    await client().exchangeCode(code)
    expect(await rejection(client().exchangeCode(code))).toMatchObject({ errcode: 40163 })
  })

  it('reports 40029 for a code WeChat never issued and 41008 for none', async () => {
    expect(await rejection(client().exchangeCode('0'.repeat(32)))).toMatchObject({ errcode: 40029 })
    expect(await rejection(client().exchangeCode(''))).toMatchObject({ errcode: 41008 })
  })

  it('reports 42003 for a code older than 5 minutes', async () => {
    const code = await issueCode()
    clock += 5 * 60 * 1000 + 1
    expect(await rejection(client().exchangeCode(code))).toMatchObject({ errcode: 42003 })
  })

  it('reports 40013 for a wrong AppID and 40125 for a wrong secret', async () => {
    const code = await issueCode()
    expect(await rejection(client({ appId: 'wx_other' }).exchangeCode(code))).toMatchObject({ errcode: 40013 })
    expect(await rejection(client({ appSecret: 'nope' }).exchangeCode(code))).toMatchObject({ errcode: 40125 })
  })
})

describe('WeChat adapter: user info', () => {
  it('reads the profile with a user-info token', async () => {
    const token = await client().exchangeCode(await issueCode('snsapi_userinfo', 'lina'))
    const info = await client().userInfo(token.accessToken, token.openid)
    expect(info).toMatchObject({ openid: token.openid, nickname: '李娜', sex: 2, city: '杭州', unionid: token.unionid })
    expect(info.headimgurl).toBe('https://zixue.test/sim/avatar/lina.svg')
  })

  it('reports 48001 for a base-scope token, 40003 for another openid and 42001 after two hours', async () => {
    const base = await client().exchangeCode(await issueCode('snsapi_base'))
    expect(await rejection(client().userInfo(base.accessToken, base.openid))).toMatchObject({ errcode: 48001 })
    const full = await client().exchangeCode(await issueCode())
    expect(await rejection(client().userInfo(full.accessToken, base.openid.replace(/.$/, 'x')))).toMatchObject({
      errcode: 40003,
    })
    clock += 7200 * 1000
    expect(await rejection(client().userInfo(full.accessToken, full.openid))).toMatchObject({ errcode: 42001 })
    expect(await rejection(client().userInfo('unknown-token', full.openid))).toMatchObject({ errcode: 40001 })
  })
})

describe('WeChat adapter: jsapi ticket', () => {
  it('fetches the token and ticket once and serves them from its cache until shortly before expiry', async () => {
    const c = client()
    const [a, b] = await Promise.all([c.jsapiTicket(), c.jsapiTicket()])
    expect(a).toBe(b)
    expect(await c.jsapiTicket()).toBe(a)
    expect(calls.filter((p) => p.endsWith('/cgi-bin/stable_token'))).toHaveLength(1)
    expect(calls.filter((p) => p.endsWith('/cgi-bin/token'))).toHaveLength(0)
    expect(calls.filter((p) => p.endsWith('/getticket'))).toHaveLength(1)

    clock += (7200 - 299) * 1000
    simState.ticket = undefined
    const renewed = await c.jsapiTicket()
    expect(renewed).not.toBe(a)
    expect(calls.filter((p) => p.endsWith('/cgi-bin/stable_token'))).toHaveLength(2)
  })

  it('shares the token and ticket through its credential store: a second process asks WeChat for nothing', async () => {
    const store = memoryCredentialStore()
    simState.ticket = undefined
    calls.length = 0
    const first = await client({ credentials: store }).jsapiTicket()
    const second = client({ credentials: store })
    expect(await second.jsapiTicket()).toBe(first)
    expect(calls.map((p) => p.replace('/sim', ''))).toEqual(['/cgi-bin/stable_token', '/cgi-bin/ticket/getticket'])
  })

  it('fetches a new token once when WeChat refuses the cached one (a forced refresh elsewhere)', async () => {
    simState.ticket = undefined
    await client().jsapiTicket() // WeChat's ticket now has two hours left
    clock += 3600 * 1000
    const c = client()
    await c.jsapiTicket() // cached: the ticket for its remaining hour, the token until five minutes before expiry
    simState.stable.lastForcedAt = 0
    const forced = await sim.inject({
      method: 'POST',
      url: '/sim/cgi-bin/stable_token',
      payload: { grant_type: 'client_credential', appid: APP_ID, secret: SECRET, force_refresh: true },
    })
    expect(forced.json()).toMatchObject({ expires_in: 7200 }) // another process forced one: ours died at once
    clock += 3400 * 1000
    calls.length = 0
    await expect(c.jsapiTicket()).resolves.toMatch(/^[\w-]{40,}$/)
    expect(calls.map((p) => p.replace('/sim', ''))).toEqual([
      '/cgi-bin/ticket/getticket',
      '/cgi-bin/stable_token',
      '/cgi-bin/ticket/getticket',
    ])
  })

  it('reports a wrong secret as 40125', async () => {
    expect(await rejection(client({ appSecret: 'nope' }).jsapiTicket())).toMatchObject({ errcode: 40125 })
  })
})

describe('WeChat simulator: client-credential tokens', () => {
  const stable = (body: unknown) =>
    sim
      .inject({ method: 'POST', url: '/sim/cgi-bin/stable_token', payload: body as Record<string, unknown> })
      .then((r) => r.json<{ access_token?: string; expires_in?: number; errcode?: number }>())
  const plain = () =>
    sim
      .inject({
        method: 'GET',
        url: '/sim/cgi-bin/token',
        query: { grant_type: 'client_credential', appid: APP_ID, secret: SECRET },
      })
      .then((r) => r.json<{ access_token: string }>().access_token)
  const ticketWith = (token: string) =>
    sim
      .inject({ method: 'GET', url: '/sim/cgi-bin/ticket/getticket', query: { access_token: token, type: 'jsapi' } })
      .then((r) => r.json<{ errcode: number }>().errcode)
  const credentials = { grant_type: 'client_credential', appid: APP_ID, secret: SECRET }

  beforeEach(() => {
    simState.clientTokens.clear()
    simState.stableTokens.clear()
    simState.stable.current = undefined
    simState.stable.lastForcedAt = 0
  })

  it('cgi-bin/token retires the previous token: it works five more minutes, then 40001', async () => {
    const first = await plain()
    const second = await plain()
    expect(second).not.toBe(first)
    expect(await ticketWith(first)).toBe(0)
    clock += 5 * 60 * 1000 + 1000
    expect(await ticketWith(first)).toBe(40001)
    expect(await ticketWith(second)).toBe(0)
  })

  it('stable_token hands out the same token while it has more than five minutes, then a new one', async () => {
    const a = await stable(credentials)
    expect(a).toMatchObject({ expires_in: 7200 })
    clock += 1000 * 1000
    const b = await stable({ ...credentials, force_refresh: false })
    expect(b).toEqual({ access_token: a.access_token, expires_in: 6200 })
    await plain() // the other family: touches nothing here
    expect(await ticketWith(a.access_token!)).toBe(0)
    clock += (6200 - 299) * 1000
    const c = await stable(credentials)
    expect(c.access_token).not.toBe(a.access_token)
    expect(await ticketWith(a.access_token!)).toBe(0) // the old one lives to its own expiry
  })

  it('stable_token force_refresh kills the previous token at once, at most every 30 s', async () => {
    const a = await stable(credentials)
    const forced = await stable({ ...credentials, force_refresh: true })
    expect(forced.access_token).not.toBe(a.access_token)
    expect(await ticketWith(a.access_token!)).toBe(40001)
    expect(await stable({ ...credentials, force_refresh: true })).toMatchObject({ errcode: 45009 })
    clock += 31_000
    expect((await stable({ ...credentials, force_refresh: true })).access_token).toBeTruthy()
  })

  it('stable_token checks the app like WeChat: a JSON body, the right grant type, appid and secret', async () => {
    expect(await stable({ ...credentials, secret: 'nope' })).toMatchObject({ errcode: 40125 })
    expect(await stable({ ...credentials, appid: 'wx_other' })).toMatchObject({ errcode: 40013 })
    expect(await stable({ ...credentials, grant_type: 'password' })).toMatchObject({ errcode: 40002 })
    expect(await stable([])).toMatchObject({ errcode: 47001 })
  })
})

describe('WeChat adapter: transport failures', () => {
  const failing = (body: string, status = 200) => client({ fetch: async () => new Response(body, { status }) })

  it('turns a network error, an HTTP error, a non-JSON body and an unexpected shape into errcode null', async () => {
    const broken = client({ fetch: async () => Promise.reject(new TypeError('fetch failed')) })
    expect(await rejection(broken.exchangeCode('x'))).toMatchObject({
      errcode: null,
      errmsg: 'network error calling /sns/oauth2/access_token',
    })
    expect(await rejection(failing('{}', 502).exchangeCode('x'))).toMatchObject({ errcode: null })
    expect(await rejection(failing('<html>').exchangeCode('x'))).toMatchObject({ errcode: null })
    expect(await rejection(failing('{"openid":1}').exchangeCode('x'))).toMatchObject({ errcode: null })
  })

  it('gives up after its timeout', async () => {
    const slow = client({
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('timed out', 'TimeoutError'))),
        ),
    })
    expect(await rejection(slow.exchangeCode('x'))).toMatchObject({
      errcode: null,
      errmsg: 'timeout calling /sns/oauth2/access_token',
    })
  })
})

describe('WeChat simulator: authorize page', () => {
  const opts = { appId: APP_ID, redirectHosts: ['zixue.test'] }
  const good = {
    appid: APP_ID,
    redirect_uri: 'https://zixue.test/a',
    response_type: 'code',
    scope: 'snsapi_base',
    state: 's1',
  }

  it.each([
    [{ appid: undefined }, 10012],
    [{ appid: 'wx_other' }, 40013],
    [{ redirect_uri: undefined }, 10011],
    [{ redirect_uri: 'https://evil.test/a' }, 10003],
    [{ redirect_uri: 'not a url' }, 10003],
    [{ scope: undefined }, 10010],
    [{ scope: 'snsapi_login' }, 10005],
    [{ state: undefined }, 10013],
  ])('refuses %o with WeChat error %i', (change, code) => {
    expect(checkAuthorize({ ...good, ...change }, opts)).toMatchObject({ ok: false, code })
  })

  it('accepts a well-formed request', () => {
    expect(checkAuthorize(good, opts)).toMatchObject({ ok: true })
  })

  it('shows the consent page for the user-info scope inside WeChat only', async () => {
    const url = '/sim/connect/oauth2/authorize'
    const query = { ...good, scope: 'snsapi_userinfo' }
    const outside = await sim.inject({ method: 'GET', url, query })
    expect(outside.body).toContain('请在微信客户端打开链接')
    const inside = await sim.inject({ method: 'GET', url, query, headers: { 'user-agent': WECHAT_UA } })
    expect(inside.statusCode).toBe(200)
    expect(inside.body).toContain('<title>微信授权</title>')
    expect(inside.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">')
    expect(inside.body).toContain('允许')
    expect(inside.body).toContain('微信测试用户')
  })

  it('sends the person back with only the state when they refuse', async () => {
    const res = await sim.inject({
      method: 'POST',
      url: '/sim/connect/oauth2/authorize/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...good, scope: 'snsapi_userinfo', user: 'test-user', action: 'deny' }).toString(),
    })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('https://zixue.test/a?state=s1')
  })

  it('remembers the chosen user for the silent base scope, and a typed nickname is a user of its own', async () => {
    const res = await sim.inject({
      method: 'POST',
      url: '/sim/connect/oauth2/authorize/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...good,
        scope: 'snsapi_userinfo',
        user: 'custom',
        nickname: ' 阿明 ',
        action: 'allow',
      }).toString(),
    })
    const cookie = String(res.headers['set-cookie']).split(';')[0]!
    const base = await sim.inject({
      method: 'GET',
      url: '/sim/connect/oauth2/authorize',
      query: good,
      headers: { 'user-agent': WECHAT_UA, cookie },
    })
    const code = new URL(base.headers.location!).searchParams.get('code')!
    const token = await client().exchangeCode(code)
    expect(token.openid).toBe(simulatedIdentity(APP_ID, 'n:阿明').openid)
    expect(token.scope).toBe('snsapi_base')
  })
})
