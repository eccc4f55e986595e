import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createWechatHttpClient } from '#server/integrations/wechat/wechat-http-client.ts'
import { randomIp, signIn, testClock } from '#server/modules/auth/testing.ts'
import { useTestApp } from '#tests/support/app.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { makeCourse } from '#tests/support/media-fixtures.ts'

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 MicroMessenger/8.0.61(0x18003d2f) NetType/WIFI Language/zh_CN'
const env = { APP_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', PAYMENT_SWEEPS: 'false' } as const
const config = loadConfig(env)
type Body<T = Record<string, unknown>> = { code: number; msg: string; data: T }

describe('the openid of a phone member inside WeChat (issue 10 §3: silent base scope, snapshot mode)', () => {
  const clock = testClock()
  const inject = injectFetch(() => t().app)
  const t = useTestApp(env, {
    integrations: {
      now: clock.now,
      paymentsFetch: inject,
      wechat: createWechatHttpClient({
        apiBase: config.wechat.apiBase,
        appId: config.wechat.appId,
        appSecret: config.wechat.appSecret,
        now: clock.now,
        fetch: inject,
      }),
    },
  })

  /** Our OAuth start with the base scope, WeChat's silent redirect back; `snapshot`: opened from Moments. */
  async function baseRoundTrip(snapshot = false) {
    const start = await t().app.inject({
      method: 'GET',
      url: '/api/wechat/oauth',
      query: { scope: 'snsapi_base', path: '/course/coursePurchase?course_id=1' },
      remoteAddress: randomIp(),
    })
    const nonce = start.cookies.find((c) => c.name === 'zx_wx_nonce')!.value
    const authorize = new URL(start.headers.location!)
    const cookie = `wxsim_user=lina${snapshot ? '; wxsim_snapshot=1' : ''}`
    const back = await t().app.inject({
      method: 'GET',
      url: `${authorize.pathname}${authorize.search}`,
      headers: { 'user-agent': WECHAT_UA, cookie },
    })
    const to = new URL(back.headers.location!)
    expect(to.searchParams.get('loginCallback')).toBe('false')
    return { code: to.searchParams.get('code')!, state: to.searchParams.get('state')!, cookie: `zx_wx_nonce=${nonce}` }
  }

  const wxGetOpenid = async (r: { code: string; state: string; cookie: string }, token?: string) =>
    (
      await t().app.inject({
        method: 'POST',
        url: '/api/wx_get_openid',
        payload: { code: r.code, state: r.state },
        headers: { cookie: r.cookie, origin: 'http://localhost', ...(token ? { 'zxb-token': token } : {}) },
      })
    ).json<Body<{ openid: string }>>()

  const payJsapi = async (token: string, courseId: number) =>
    (
      await t().app.inject({
        method: 'POST',
        url: '/api/pay/course',
        payload: { course_id: courseId, pay_method: 'wechat_jsapi' },
        headers: { 'zxb-token': token },
      })
    ).json<Body<{ order_no: string; jsapi: { package: string } | null }>>()

  it('JSAPI pay works for a phone member after the base-scope round trip, with that openid, for 6 hours', async () => {
    const { token } = await signIn(t().app)
    const course = await makeCourse(t().database.db)
    expect((await payJsapi(token, course)).code).toBe(484)

    const linked = await wxGetOpenid(await baseRoundTrip(), token)
    expect(linked.code).toBe(200)
    const paid = await payJsapi(token, course)
    expect(paid.code).toBe(200)
    expect(paid.data.jsapi!.package).toMatch(/^prepay_id=/)
    expect(t().app.paymentSimulators!.wechat.trades.get(paid.data.order_no)).toMatchObject({
      openid: linked.data.openid,
      tradeType: 'JSAPI',
    })

    clock.advance(6 * 3600 * 1000 + 1000)
    const other = await makeCourse(t().database.db)
    expect((await payJsapi(token, other)).code).toBe(484)
    clock.reset()
  })

  it('without a session the openid is only told, never kept', async () => {
    const before = await t().database.db.execute<{ n: string }>(sql`select count(*) n from wechat_pay_openids`)
    expect((await wxGetOpenid(await baseRoundTrip())).code).toBe(200)
    const after = await t().database.db.execute<{ n: string }>(sql`select count(*) n from wechat_pay_openids`)
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n)
  })

  it('snapshot mode (is_snapshotuser=1): 446, the virtual openid is neither returned, stored, bound nor paid with', async () => {
    const { token } = await signIn(t().app)
    const course = await makeCourse(t().database.db)
    const answer = await wxGetOpenid(await baseRoundTrip(true), token)
    expect(answer).toEqual({ code: 446, msg: '请点击屏幕下方的“使用完整服务”后再试', data: {} })
    const kept = await t().database.db.execute(sql`select 1 from wechat_pay_openids where openid like 'o_snapshot_%'`)
    expect(kept.rows).toHaveLength(0)
    const bound = await t().database.db.execute(sql`select 1 from members where wx_openid like 'o_snapshot_%'`)
    expect(bound.rows).toHaveLength(0)
    expect((await payJsapi(token, course)).code).toBe(484)

    const r = await baseRoundTrip(true)
    const login = await t().app.inject({
      method: 'POST',
      url: '/api/wx_login',
      payload: { code: r.code, state: r.state },
      headers: { cookie: r.cookie, origin: 'http://localhost' },
    })
    expect(login.json<Body>().code).toBe(446)
  })
})
