import crypto from 'node:crypto'
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { members } from '#server/db/schema/members.ts'
import { sessions } from '#server/db/schema/sessions.ts'
import { oauthCodesUsed } from '#server/db/schema/wechat.ts'
import { resolveToken } from '#server/modules/sessions/session.service.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { createWechatHttpClient, type WechatHttpOptions } from '#server/integrations/wechat/wechat-http-client.ts'
import { simulatedIdentity } from '#server/integrations/wechat/wechat-simulator.ts'
import { randomIp } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN'
const env = { APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false' } as const
const config = loadConfig(env)
const APP_ID = config.wechat.appId

let clock = Date.now()
let wechatDown = false
const wechatCalls: string[] = []
// The real adapter, its HTTP calls routed in process to the simulator this very app mounts at /__sim/wechat.
const simFetch = injectFetch(
  () => t().app,
  (url) => wechatCalls.push(url.pathname),
)
const wechatOptions: WechatHttpOptions = {
  apiBase: config.wechat.apiBase,
  appId: APP_ID,
  appSecret: config.wechat.appSecret,
  now: () => new Date(clock),
  fetch: async (input, init) => {
    if (wechatDown) throw new TypeError('fetch failed')
    return simFetch(input, init)
  },
}
const t = useTestApp(env, {
  integrations: { now: () => new Date(clock), wechat: createWechatHttpClient(wechatOptions) },
})

interface Browser {
  cookie?: string
}

interface Envelope<T = Record<string, unknown>> {
  code: number
  msg: string
  data: T
}

async function startOauth(query: Record<string, string>, browser: Browser = {}) {
  // An address per start: this file's flows must not add up to the per-address limit (wechat-limits.test.ts).
  const res = await t().app.inject({
    method: 'GET',
    url: '/api/wechat/oauth',
    query,
    headers: browser.cookie ? { cookie: browser.cookie } : {},
    remoteAddress: randomIp(),
  })
  const nonce = res.cookies.find((c) => c.name === 'zx_wx_nonce')
  if (nonce) browser.cookie = `zx_wx_nonce=${nonce.value}`
  return res
}

/** The whole round trip a phone makes: our OAuth start, WeChat's (simulated) consent, back with code and state. */
async function authorize(
  opts: {
    scope?: 'snsapi_base' | 'snsapi_userinfo'
    path?: string
    user?: string
    nickname?: string
    browser?: Browser
  } = {},
) {
  const scope = opts.scope ?? 'snsapi_userinfo'
  const browser = opts.browser ?? {}
  const start = await startOauth({ scope, path: opts.path ?? '/mine' }, browser)
  expect(start.statusCode).toBe(302)
  const authorizeUrl = new URL(start.headers.location!)
  const res =
    scope === 'snsapi_base'
      ? await t().app.inject({
          method: 'GET',
          url: `${authorizeUrl.pathname}${authorizeUrl.search}`,
          // The base scope asks nothing: the simulator signs in the user this phone chose before (its cookie).
          headers: { 'user-agent': WECHAT_UA, cookie: `wxsim_user=${encodeURIComponent(opts.user ?? 'test-user')}` },
        })
      : await t().app.inject({
          method: 'POST',
          url: `${authorizeUrl.pathname}/confirm`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': WECHAT_UA },
          payload: new URLSearchParams({
            ...Object.fromEntries(authorizeUrl.searchParams),
            user: opts.nickname ? 'custom' : (opts.user ?? 'test-user'),
            nickname: opts.nickname ?? '',
            action: 'allow',
          }).toString(),
        })
  expect(res.statusCode).toBe(302)
  const back = new URL(res.headers.location!)
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, back, browser }
}

async function post<T = Record<string, unknown>>(url: string, payload: unknown, browser: Browser = {}, token?: string) {
  const headers: Record<string, string> = {}
  // A browser sends its cookie, and with a POST its Origin (server/http/csrf.ts).
  if (browser.cookie) Object.assign(headers, { cookie: browser.cookie, origin: 'http://localhost' })
  if (token) headers['zxb-token'] = token
  const res = await t().app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers })
  return { status: res.statusCode, body: res.json<Envelope<T>>(), raw: res.body }
}

async function login(opts: Parameters<typeof authorize>[0] = {}) {
  const { code, state, browser } = await authorize(opts)
  const res = await post<{ token: string; expire_in: number; openid: string }>(
    '/api/wx_login',
    { code, state },
    browser,
  )
  expect(res.body.code).toBe(200)
  const resolved = await resolveToken(t().database.db, res.body.data.token)
  return { ...res.body.data, memberId: resolved.principal!.memberId }
}

async function member(id: number) {
  const [row] = await t().database.db.select().from(members).where(eq(members.id, id))
  return row!
}

async function createMember(values: Partial<typeof members.$inferInsert> = {}) {
  const [row] = await t()
    .database.db.insert(members)
    .values({ nickname: '用户8000', ...values })
    .returning({ id: members.id })
  return row!.id
}

async function sessionCount() {
  const [row] = await t().database.db.select({ n: count() }).from(sessions)
  return row!.n
}

describe('GET /api/wechat/oauth', () => {
  it('redirects to the authorize page with a state bound to this browser by an httpOnly cookie', async () => {
    const res = await startOauth({ scope: 'snsapi_userinfo', path: '/mine' })
    expect(res.statusCode).toBe(302)
    const location = res.headers.location!
    expect(
      location.startsWith(`${config.wechat.openBase}/connect/oauth2/authorize?appid=${APP_ID}&redirect_uri=`),
    ).toBe(true)
    expect(location.endsWith('#wechat_redirect')).toBe(true)
    const url = new URL(location)
    expect([...url.searchParams.keys()]).toEqual(['appid', 'redirect_uri', 'response_type', 'scope', 'state'])
    expect(url.searchParams.get('redirect_uri')).toBe(`${config.publicUrl}/mine?loginCallback=true`)
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('scope')).toBe('snsapi_userinfo')
    expect(url.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/)
    const cookie = res.cookies.find((c) => c.name === 'zx_wx_nonce')!
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api', sameSite: 'Lax' })
    expect(cookie.value).toMatch(/^[\w-]{43}$/)
  })

  it('returns with loginCallback=false for the base scope, keeps login1 and drops stale OAuth parameters', async () => {
    const res = await startOauth({
      scope: 'snsapi_base',
      path: '/course/12.html?sp=abc&code=old&state=old&loginCallback=true',
      login1: 'x1',
    })
    const redirect = new URL(new URL(res.headers.location!).searchParams.get('redirect_uri')!)
    expect(redirect.pathname).toBe('/course/12.html')
    expect(Object.fromEntries(redirect.searchParams)).toEqual({ sp: 'abc', login1: 'x1', loginCallback: 'false' })
  })

  it('keeps the nonce of a browser that already has one, so two tabs can sign in at once', async () => {
    const browser: Browser = {}
    await startOauth({ path: '/' }, browser)
    const first = browser.cookie
    await startOauth({ path: '/vip' }, browser)
    expect(browser.cookie).toBe(first)
  })

  it.each([
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['mine'],
    ['/mine\nSet-Cookie: a=b'],
    [`/${'a'.repeat(500)}`],
  ])('refuses the return path %j with 400 (no open redirect)', async (path) => {
    const res = await startOauth({ path })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 400, data: { field: 'path' } })
    expect(res.headers.location).toBeUndefined()
  })

  it('refuses an unknown scope and a malformed login1 with 400', async () => {
    expect((await startOauth({ scope: 'snsapi_login', path: '/' })).json()).toMatchObject({
      code: 400,
      data: { field: 'scope' },
    })
    expect((await startOauth({ path: '/', login1: '<x>' })).json()).toMatchObject({
      code: 400,
      data: { field: 'login1' },
    })
  })
})

describe('the WeChat simulator at /__sim/wechat', () => {
  it('shows the consent page "微信授权" for the user-info scope and asks nothing for the base scope', async () => {
    const start = await startOauth({ scope: 'snsapi_userinfo', path: '/mine' })
    const url = new URL(start.headers.location!)
    const page = await t().app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { 'user-agent': WECHAT_UA },
    })
    expect(page.headers['content-type']).toContain('text/html')
    expect(page.body).toContain('<title>微信授权</title>')
    expect(page.body).toContain('微信测试用户')
    const { back } = await authorize({ scope: 'snsapi_base', path: '/mine' })
    expect(back.searchParams.get('loginCallback')).toBe('false')
    expect(back.searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/)
  })
})

describe('POST /api/wx_login', () => {
  it('signs a new WeChat user in with a platform-3 session and creates the member from the WeChat profile', async () => {
    const before = await sessionCount()
    const { code, state, browser } = await authorize({ user: 'lina' })
    const res = await post<{ token: string; expire_in: number; openid: string }>(
      '/api/wx_login',
      { code, state },
      browser,
    )
    expect(res.body).toMatchObject({
      code: 200,
      data: { expire_in: 30 * 24 * 3600, openid: simulatedIdentity(APP_ID, 'lina').openid },
    })
    expect(Object.keys(res.body.data).sort()).toEqual(['expire_in', 'openid', 'token'])
    const { principal } = await resolveToken(t().database.db, res.body.data.token)
    const row = await member(principal!.memberId)
    expect(row).toMatchObject({
      nickname: '李娜',
      gender: 2,
      avatarUrl: `${config.wechat.openBase}/avatar/lina.svg`,
      wxOpenid: simulatedIdentity(APP_ID, 'lina').openid,
      wxUnionid: simulatedIdentity(APP_ID, 'lina').unionid,
      phone: null,
    })
    const [session] = await t().database.db.select().from(sessions).where(eq(sessions.id, principal!.sessionId))
    expect(session!.platform).toBe(3)
    expect(await sessionCount()).toBe(before + 1)
  })

  it('sets the session cookie of server-rendered pages to the new token, HttpOnly', async () => {
    const { code, state, browser } = await authorize({ nickname: '饼干用户' })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/wx_login',
      payload: { code, state },
      headers: { cookie: browser.cookie!, origin: 'http://localhost' },
    })
    const { token, expire_in } = res.json<Envelope<{ token: string; expire_in: number }>>().data
    expect(res.cookies.find((c) => c.name === 'zx_session')).toMatchObject({
      value: token,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: expire_in,
    })
  })

  it('keeps a WeChat nickname as text: control and direction-override characters removed', async () => {
    // U+202E reverses what follows, U+2066–2069 isolate it: a nickname must not reorder the text around it.
    const { memberId } = await login({ nickname: '\u2066小\u202e明\u2069\u0007' })
    expect((await member(memberId)).nickname).toBe('小明')
  })

  it('signs the same WeChat user into the same member every time', async () => {
    const first = await login({ nickname: '回头客' })
    const second = await login({ nickname: '回头客' })
    expect(second.memberId).toBe(first.memberId)
    expect(second.token).not.toBe(first.token)
  })

  it('accepts an OAuth code once: the same code with a new state answers 441', async () => {
    const { code, state, browser } = await authorize()
    expect((await post('/api/wx_login', { code, state }, browser)).body.code).toBe(200)
    const again = await authorize({ browser })
    wechatCalls.length = 0
    const res = await post('/api/wx_login', { code, state: again.state }, browser)
    expect(res.body).toEqual({ code: 441, msg: '微信授权码已使用，请重新授权', data: {} })
    // Refused from our own record of used codes, before asking WeChat.
    expect(wechatCalls).toEqual([])
  })

  it('accepts a state once: replaying the whole return answers 443', async () => {
    const { code, state, browser } = await authorize()
    expect((await post('/api/wx_login', { code, state }, browser)).body.code).toBe(200)
    expect((await post('/api/wx_login', { code, state }, browser)).body).toEqual({
      code: 443,
      msg: '授权请求已失效，请重新发起',
      data: {},
    })
  })

  it('accepts a state only from the browser that started the flow', async () => {
    const { code, state, browser } = await authorize()
    expect((await post('/api/wx_login', { code, state })).body.code).toBe(443)
    const stranger: Browser = {}
    await startOauth({ path: '/' }, stranger)
    expect((await post('/api/wx_login', { code, state }, stranger)).body.code).toBe(443)
    expect((await post('/api/wx_login', { code, state }, { cookie: 'zx_wx_nonce=forged' })).body.code).toBe(443)
    // The failed attempts did not use the state up: its own browser still signs in.
    expect((await post('/api/wx_login', { code, state }, browser)).body.code).toBe(200)
  })

  it('refuses a state older than 10 minutes with 443', async () => {
    const { code, state, browser } = await authorize()
    clock += 10 * 60 * 1000 + 1
    try {
      expect((await post('/api/wx_login', { code, state }, browser)).body.code).toBe(443)
    } finally {
      clock = Date.now()
    }
  })

  it('lets only one of two racing requests use a code', async () => {
    const { code, state, browser } = await authorize()
    const again = await authorize({ browser })
    const results = await Promise.all([
      post('/api/wx_login', { code, state }, browser),
      post('/api/wx_login', { code, state: again.state }, browser),
    ])
    expect(results.map((r) => r.body.code).sort()).toEqual([200, 441])
  })

  it('creates one member when the same new user signs in from two tabs at once', async () => {
    const a = await authorize({ nickname: '双开' })
    const b = await authorize({ nickname: '双开' })
    const [x, y] = await Promise.all([post('/api/wx_login', a, a.browser), post('/api/wx_login', b, b.browser)])
    expect([x.body.code, y.body.code]).toEqual([200, 200])
    const rows = await t().database.db.select().from(members).where(eq(members.nickname, '双开'))
    expect(rows).toHaveLength(1)
  })

  it('matches the member by unionid before openid', async () => {
    const ids = simulatedIdentity(APP_ID, 'n:联合')
    const byUnionid = await createMember({
      nickname: '小程序会员',
      wxUnionid: ids.unionid,
      wxOpenid: 'o_from_the_mini_program',
    })
    const byOpenid = await createMember({ nickname: '旧公众号会员', wxOpenid: ids.openid })
    const { memberId } = await login({ nickname: '联合' })
    expect(memberId).toBe(byUnionid)
    // The openid stays with the member who holds it; nothing is taken from one member for another.
    expect((await member(byUnionid)).wxOpenid).toBe('o_from_the_mini_program')
    expect((await member(byOpenid)).wxOpenid).toBe(ids.openid)
  })

  it('falls back to the openid and then stores the unionid it learned', async () => {
    const ids = simulatedIdentity(APP_ID, 'n:老用户')
    const existing = await createMember({ nickname: '老用户', wxOpenid: ids.openid })
    const { memberId } = await login({ nickname: '老用户' })
    expect(memberId).toBe(existing)
    expect(await member(existing)).toMatchObject({ wxOpenid: ids.openid, wxUnionid: ids.unionid })
  })

  it('signs in a user without unionid by openid alone', async () => {
    const first = await login({ user: 'no-unionid' })
    const second = await login({ user: 'no-unionid' })
    expect(second.memberId).toBe(first.memberId)
    expect((await member(first.memberId)).wxUnionid).toBeNull()
  })

  it('signs in with a base-scope code too, naming a new member after its openid', async () => {
    const { code, state, browser } = await authorize({ scope: 'snsapi_base', user: 'n:静默' })
    const res = await post<{ token: string; openid: string }>('/api/wx_login', { code, state }, browser)
    expect(res.body.code).toBe(200)
    const { principal } = await resolveToken(t().database.db, res.body.data.token)
    expect((await member(principal!.memberId)).nickname).toBe(`微信用户${res.body.data.openid.slice(-4)}`)
  })

  it('records which member each code signed in', async () => {
    const { code, state, browser } = await authorize()
    const res = await post<{ token: string }>('/api/wx_login', { code, state }, browser)
    const { principal } = await resolveToken(t().database.db, res.body.data.token)
    const hash = crypto.createHash('sha256').update(`${APP_ID}:${code}`).digest('hex')
    const [row] = await t().database.db.select().from(oauthCodesUsed).where(eq(oauthCodesUsed.codeHash, hash))
    expect(row?.memberId).toBe(principal!.memberId)
  })

  it.each([
    // A missing field reads as one (server/http/error-handler.ts); WeChat's code and state have no label of their own.
    [{ state: 'abc' }, /^(有必填的内容没有填写|填写的内容格式不正确)，.+$/, 'code'],
    [{ code: 'abc' }, /^(有必填的内容没有填写|填写的内容格式不正确)，.+$/, 'state'],
    [{ code: 12345, state: 'abc' }, '填写的内容格式不正确，请检查后重试', 'code'],
    [{ code: 'a'.repeat(129), state: 'abc' }, '填写的内容格式不正确，请检查后重试', 'code'],
    [{ code: 'a b', state: 'abc' }, '填写的内容格式不正确，请检查后重试', 'code'],
    [{ code: 'abc', state: 'a-b' }, '填写的内容格式不正确，请检查后重试', 'state'],
  ])('refuses %o with 400 naming the field', async (payload, msg, field) => {
    const res = await post('/api/wx_login', payload)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      code: 400,
      msg: typeof msg === 'string' ? msg : (expect.stringMatching(msg) as string),
      data: { field },
    })
  })

  it('answers a code WeChat never issued with 441', async () => {
    const { state, browser } = await authorize()
    const res = await post('/api/wx_login', { code: 'f'.repeat(32), state }, browser)
    expect(res.body).toEqual({ code: 441, msg: '微信授权码无效，请重新授权', data: {} })
  })

  it('answers a code that expired at WeChat (after 5 minutes) with 441', async () => {
    const { code, state, browser } = await authorize()
    clock += 5 * 60 * 1000 + 1
    try {
      expect((await post('/api/wx_login', { code, state }, browser)).body).toEqual({
        code: 441,
        msg: '微信授权码已过期，请重新授权',
        data: {},
      })
    } finally {
      clock = Date.now()
    }
  })

  it('answers a wrong AppSecret (WeChat 40125) with 442 and no internals', async () => {
    const { code, state, browser } = await authorize()
    wechatOptions.appSecret = 'not-the-secret'
    try {
      const res = await post('/api/wx_login', { code, state }, browser)
      expect(res.body).toEqual({ code: 442, msg: '微信登录配置有误，请联系客服', data: {} })
      expect(res.raw).not.toMatch(/40125|appsecret|stack/i)
    } finally {
      wechatOptions.appSecret = config.wechat.appSecret
    }
  })

  it('answers WeChat being unreachable with 442', async () => {
    const { code, state, browser } = await authorize()
    wechatDown = true
    try {
      expect((await post('/api/wx_login', { code, state }, browser)).body).toEqual({
        code: 442,
        msg: '微信服务暂时不可用，请稍后重试',
        data: {},
      })
    } finally {
      wechatDown = false
    }
  })
})

describe('POST /api/wx_get_openid', () => {
  it('returns only the openid: no session, no member, nothing granted', async () => {
    const sessionsBefore = await sessionCount()
    const [membersBefore] = await t().database.db.select({ n: count() }).from(members)
    const { code, state, browser } = await authorize({ scope: 'snsapi_base', user: 'n:只看看' })
    const ids = simulatedIdentity(APP_ID, 'n:只看看')
    const res = await post<{ openid: string }>('/api/wx_get_openid', { code, state }, browser)
    expect(res.body).toEqual({ code: 200, msg: 'ok', data: { openid: ids.openid } })
    expect(await sessionCount()).toBe(sessionsBefore)
    const [membersAfter] = await t().database.db.select({ n: count() }).from(members)
    expect(membersAfter!.n).toBe(membersBefore!.n)
    // The open id is no credential: an endpoint that needs a session still asks for a login.
    const bind = await authorize()
    expect((await post('/api/authWechatInfo', bind, bind.browser, res.body.data.openid)).body.code).toBe(301)
    // And the code it used cannot be turned into a session afterwards.
    const next = await authorize({ browser })
    expect((await post('/api/wx_login', { code, state: next.state }, browser)).body.code).toBe(441)
  })

  it('needs the state of this browser as well', async () => {
    const { code, state } = await authorize({ scope: 'snsapi_base' })
    expect((await post('/api/wx_get_openid', { code, state })).body.code).toBe(443)
  })
})

describe('POST /api/wx/code2unionid', () => {
  it('returns the unionid and openid of a code', async () => {
    const { code, state, browser } = await authorize({ user: 'xiaoyu' })
    const res = await post('/api/wx/code2unionid', { code, state }, browser)
    const ids = simulatedIdentity(APP_ID, 'xiaoyu')
    expect(res.body).toEqual({ code: 200, msg: 'ok', data: { unionid: ids.unionid, openid: ids.openid } })
  })

  it('returns a null unionid for an account outside the Open Platform', async () => {
    const { code, state, browser } = await authorize({ user: 'no-unionid' })
    expect((await post('/api/wx/code2unionid', { code, state }, browser)).body.data).toEqual({
      unionid: null,
      openid: simulatedIdentity(APP_ID, 'no-unionid').openid,
    })
  })
})

describe('POST /api/authWechatInfo', () => {
  /** A member signed in by phone, as the SMS login would leave them. */
  async function phoneMember(values: Partial<typeof members.$inferInsert> = {}) {
    const id = await createMember({
      phone: `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      ...values,
    })
    const { issueSession } = await import('#server/modules/sessions/session.service.ts')
    const { token } = await issueSession(t().database.db, id, 2, new Date(clock))
    return { id, token }
  }

  it('asks for a login without a token (301)', async () => {
    const { code, state, browser } = await authorize()
    expect((await post('/api/authWechatInfo', { code, state }, browser)).body).toEqual({
      code: 301,
      msg: '请先登录',
      data: {},
    })
  })

  it('binds the WeChat identity, taking the WeChat nickname and avatar when the member has none of their own', async () => {
    const me = await phoneMember({ nickname: '用户8000' })
    const { code, state, browser } = await authorize({ nickname: '绑定者' })
    const ids = simulatedIdentity(APP_ID, 'n:绑定者')
    const res = await post('/api/authWechatInfo', { code, state }, browser, me.token)
    expect(res.body).toEqual({
      code: 200,
      msg: 'ok',
      data: {
        openid: ids.openid,
        unionid: ids.unionid,
        nickname: '绑定者',
        avatar: `${config.wechat.openBase}/avatar/${encodeURIComponent('n:绑定者')}.svg`,
      },
    })
    expect(await member(me.id)).toMatchObject({ wxOpenid: ids.openid, wxUnionid: ids.unionid, nickname: '绑定者' })
    // From now on WeChat sign-in reaches this same member.
    expect((await login({ nickname: '绑定者' })).memberId).toBe(me.id)
  })

  it('keeps a nickname and avatar the member chose', async () => {
    const me = await phoneMember({ nickname: '自己起的名字', avatarUrl: '/media/avatars/mine.webp' })
    const { code, state, browser } = await authorize({ nickname: '另一个名字' })
    const res = await post('/api/authWechatInfo', { code, state }, browser, me.token)
    expect(res.body.data).toMatchObject({ nickname: '自己起的名字', avatar: '/media/avatars/mine.webp' })
  })

  it('refuses a WeChat identity that belongs to another member with 444', async () => {
    const other = await login({ nickname: '已有主人' })
    const me = await phoneMember()
    const { code, state, browser } = await authorize({ nickname: '已有主人' })
    expect((await post('/api/authWechatInfo', { code, state }, browser, me.token)).body).toEqual({
      code: 444,
      msg: '该微信已绑定其他账号',
      data: {},
    })
    expect((await member(me.id)).wxOpenid).toBeNull()
    expect((await member(other.memberId)).wxOpenid).toBe(simulatedIdentity(APP_ID, 'n:已有主人').openid)
  })

  it('refuses to replace the WeChat identity a member is bound to with 445', async () => {
    const me = await phoneMember()
    const first = await authorize({ nickname: '第一个微信' })
    expect((await post('/api/authWechatInfo', first, first.browser, me.token)).body.code).toBe(200)
    const second = await authorize({ nickname: '第二个微信' })
    expect((await post('/api/authWechatInfo', second, second.browser, me.token)).body).toEqual({
      code: 445,
      msg: '当前账号已绑定其他微信',
      data: {},
    })
    const again = await authorize({ nickname: '第一个微信' })
    expect((await post('/api/authWechatInfo', again, again.browser, me.token)).body.code).toBe(200)
  })
})

describe('GET /api/wechat/share', () => {
  async function share(url: string | undefined) {
    const res = await t().app.inject({
      method: 'GET',
      url: '/api/wechat/share',
      query: url === undefined ? {} : { url },
    })
    return {
      status: res.statusCode,
      body: res.json<Envelope<{ appId: string; timestamp: number; nonceStr: string; signature: string }>>(),
    }
  }

  /** The ticket, fetched from the simulator directly, and the signature computed here from the documented recipe. */
  async function expectedSignature(data: { timestamp: number; nonceStr: string }, url: string) {
    const tokenRes = await t().app.inject({
      method: 'GET',
      url: '/__sim/wechat/cgi-bin/token',
      query: { grant_type: 'client_credential', appid: APP_ID, secret: config.wechat.appSecret },
    })
    const ticketRes = await t().app.inject({
      method: 'GET',
      url: '/__sim/wechat/cgi-bin/ticket/getticket',
      query: { access_token: tokenRes.json<{ access_token: string }>().access_token, type: 'jsapi' },
    })
    const ticket = ticketRes.json<{ ticket: string }>().ticket
    const plain = `jsapi_ticket=${ticket}&noncestr=${data.nonceStr}&timestamp=${data.timestamp}&url=${url}`
    return crypto.createHash('sha1').update(plain).digest('hex')
  }

  it('signs a page of this site for wx.config, without its #fragment', async () => {
    const page = `${config.publicUrl}/course/12.html?sp=abc`
    const res = await share(`${page}#comments`)
    expect(res.body.code).toBe(200)
    expect(res.body.data.appId).toBe(APP_ID)
    expect(res.body.data.timestamp).toBe(Math.floor(clock / 1000))
    expect(res.body.data.nonceStr).toMatch(/^[A-Za-z0-9]{16}$/)
    expect(res.body.data.signature).toBe(await expectedSignature(res.body.data, page))
  })

  it('reuses the cached ticket instead of asking WeChat on every share', async () => {
    await share(`${config.publicUrl}/`)
    wechatCalls.length = 0
    await share(`${config.publicUrl}/vip`)
    await share(`${config.publicUrl}/mine`)
    expect(wechatCalls).toEqual([])
  })

  it.each([['https://evil.example/course/1.html'], ['not a url'], [''], [`${config.publicUrl}/${'a'.repeat(1000)}`]])(
    'refuses %j with 400',
    async (url) => {
      const res = await share(url)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 400, data: { field: 'url' } })
    },
  )

  it('refuses a request without url with 400', async () => {
    expect((await share(undefined)).body).toEqual({
      code: 400,
      msg: expect.stringMatching(/^(请填写页面地址|页面地址格式不正确)$/) as string,
      data: { field: 'url' },
    })
  })
})
