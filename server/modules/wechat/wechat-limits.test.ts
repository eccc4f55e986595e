import { count, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { oauthStates } from '#server/db/schema/wechat.ts'
import { randomIp, testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'

const MINUTE = 60_000

describe('GET /api/wechat/oauth limit per client address', () => {
  const clock = testClock()
  // The mechanism at 60 (the default is 300: a classroom on one campus network signs in at once).
  const t = useTestApp({ WECHAT_OAUTH_PER_IP_PER_10MIN: '60' }, { integrations: { now: clock.now } })
  beforeEach(() => clock.reset())

  const start = (ip: string) =>
    t().app.inject({ method: 'GET', url: '/api/wechat/oauth', query: { path: '/mine' }, remoteAddress: ip })
  const statesOf = async (ip: string) => {
    const [row] = await t().database.db.select({ n: count() }).from(oauthStates).where(eq(oauthStates.ip, ip))
    return row!.n
  }

  it('allows 60 starts from one address in 10 minutes and refuses the 61st with 429 and the minutes to wait', async () => {
    const ip = randomIp()
    expect((await start(ip)).statusCode).toBe(302)
    clock.advance(4 * MINUTE)
    for (let i = 1; i < 60; i++) expect((await start(ip)).statusCode).toBe(302)

    const refused = await start(ip)
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({ code: 429, msg: '当前网络发起微信登录太频繁，请 6 分钟后再试', data: {} })
    expect(refused.headers.location).toBeUndefined()
    expect(refused.cookies.find((c) => c.name === 'zx_wx_nonce')).toBeUndefined()
    // A refused start leaves no state behind.
    expect(await statesOf(ip)).toBe(60)

    // Another address is not affected.
    const other = randomIp()
    expect((await start(other)).statusCode).toBe(302)
    expect(await statesOf(other)).toBe(1)
  })

  it('opens again as the oldest starts leave the 10-minute window', async () => {
    const ip = randomIp()
    expect((await start(ip)).statusCode).toBe(302)
    clock.advance(5 * MINUTE)
    for (let i = 1; i < 60; i++) expect((await start(ip)).statusCode).toBe(302)
    expect((await start(ip)).statusCode).toBe(429)

    // The first start leaves the window: room for exactly one more.
    clock.advance(5 * MINUTE + 1000)
    expect((await start(ip)).statusCode).toBe(302)
    expect((await start(ip)).json()).toMatchObject({ code: 429, msg: '当前网络发起微信登录太频繁，请 5 分钟后再试' })

    // All of them have left it: the full allowance again.
    clock.advance(10 * MINUTE)
    for (let i = 0; i < 60; i++) expect((await start(ip)).statusCode).toBe(302)
    expect((await start(ip)).statusCode).toBe(429)
  })

  it('lets exactly 60 of 70 concurrent starts from one address through', async () => {
    const ip = randomIp()
    const answers = await Promise.all(Array.from({ length: 70 }, () => start(ip)))
    expect(answers.filter((a) => a.statusCode === 302)).toHaveLength(60)
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10)
    expect(await statesOf(ip)).toBe(60)
  })

  it('counts by the address, whatever the browser cookie says', async () => {
    const ip = randomIp()
    for (let i = 0; i < 60; i++) expect((await start(ip)).statusCode).toBe(302)
    const withCookie = await t().app.inject({
      method: 'GET',
      url: '/api/wechat/oauth',
      query: { path: '/' },
      remoteAddress: ip,
      headers: { cookie: `zx_wx_nonce=${'a'.repeat(43)}` },
    })
    expect(withCookie.statusCode).toBe(429)
  })
})

describe('WECHAT_OAUTH_PER_IP_PER_10MIN', () => {
  const t = useTestApp({ WECHAT_OAUTH_PER_IP_PER_10MIN: '3' })

  it('sets how many WeChat sign-ins one address may start in 10 minutes', async () => {
    const ip = randomIp()
    const start = () =>
      t().app.inject({ method: 'GET', url: '/api/wechat/oauth', query: { path: '/' }, remoteAddress: ip })
    for (let i = 0; i < 3; i++) expect((await start()).statusCode).toBe(302)
    expect((await start()).json()).toMatchObject({ code: 429, msg: '当前网络发起微信登录太频繁，请 10 分钟后再试' })
  })
})
