import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  expectLedgerConsistent,
  headersOf,
  settleSimulators,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { TestWechatPay } from './test-keys/test-keys.ts'

/**
 * The whole app in platform-certificate mode (WECHATPAY_PLATFORM_CERT_DOWNLOAD=true with the simulator): nothing
 * configured to verify WeChat Pay with but the APIv3 key; the certificates come from GET /v3/certificates.
 */
describe('WeChat Pay platform certificates, downloaded (POST /api/pay/notify/wechat)', () => {
  const { t, clock } = useCommerceApp({ WECHATPAY_PLATFORM_CERT_DOWNLOAD: 'true' })
  const sims = () => t().app.paymentSimulators!
  const fetches = () => sims().wechat.requests.filter((r) => r.path === '/v3/certificates').length

  async function buyAndPay(token: string, courseId: number) {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(token),
      payload: { course_id: courseId, pay_method: 'wechat_h5' },
    })
    const d = res.json<ApiBody<{ order_no: string }>>()
    expect(d.code).toBe(200)
    const delivery = sims().wechat.pay(d.data.order_no)
    await settleSimulators(t().app)
    const order = (
      await t().app.inject({ method: 'GET', url: `/api/orders/${d.data.order_no}`, headers: headersOf(token) })
    ).json<ApiBody<{ state: string }>>().data
    return { orderNo: d.data.order_no, state: order.state, delivery }
  }

  it('pays with the downloaded certificate, and after WeChat Pay rotates it, with the new one', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    expect(t().app.services.config.payments.wechat).toMatchObject({
      downloadCertificates: true,
      simulatorSignWith: 'certificate',
    })
    const first = await buyAndPay(m.token, await makeCourse(db))
    expect(first.state).toBe('paid')
    expect(fetches()).toBe(1)

    sims().wechat.rotatePlatformCertificate()
    // Time only moves on in this file: the download rate limit counts on it.
    clock.advance(2 * 60_000)
    const second = await buyAndPay(m.token, await makeCourse(db))
    expect(second.state).toBe('paid')
    expect(fetches()).toBe(2)
    // The notification was signed with the new certificate.
    expect(
      sims().wechat.paymentNotification(sims().wechat.trades.get(second.orderNo)!).headers['Wechatpay-Serial'],
    ).toBe(TestWechatPay.platform2Serial)
    await expectLedgerConsistent(db)
  })

  it('refuses (and logs) a notification with a serial WeChat Pay does not list, downloading at most once a minute', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: course, pay_method: 'wechat_h5' },
    })
    const orderNo = res.json<ApiBody<{ order_no: string }>>().data.order_no
    const trade = sims().wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${Date.now()}`
    trade.successTime = clock.now()
    const n = sims().wechat.paymentNotification(trade)
    const before = fetches()
    clock.advance(61_000)
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t().app.inject({
            method: 'POST',
            url: '/api/pay/notify/wechat',
            headers: { ...n.headers, 'Wechatpay-Serial': `7F${String(i).padStart(38, '0')}` },
            payload: n.body,
          }),
        ),
      )
      expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([401]))
      expect(fetches()).toBe(before + 1)
      const state = (
        await t().app.inject({ method: 'GET', url: `/api/orders/${orderNo}`, headers: headersOf(m.token) })
      ).json<ApiBody<{ state: string }>>().data.state
      expect(state).toBe('pending')
      const logged = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from payment_notifications where verified = false and outcome = 'bad_signature' and detail like 'unknown serial 7F%'`,
      )
      expect(logged.rows[0]!.n).toBe(20)
      // The real one still pays.
      expect(
        (await t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body }))
          .statusCode,
      ).toBe(204)
    } finally {
      clock.reset()
    }
    await expectLedgerConsistent(db)
  })
})
