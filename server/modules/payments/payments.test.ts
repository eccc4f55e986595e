import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { orders } from '#server/db/schema/orders.ts'
import { paymentNotifications } from '#server/db/schema/payments.ts'
import { refunds } from '#server/db/schema/refunds.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { createAlipay } from '#server/integrations/payments/alipay.ts'
import { loadPrivateKey, loadPublicKey } from '#server/integrations/payments/keys.ts'
import { createPaymentSimulators } from '#server/integrations/payments/simulators.ts'
import { TestAlipay } from '#server/integrations/payments/test-keys/test-keys.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import { expectLedgerConsistent, headersOf, settleSimulators, useCommerceApp, type ApiBody } from './testing.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'

interface Checkout {
  order_no: string
  h5_url: string | null
  redirect_url: string | null
  code_url: string | null
}

interface OrderDetail {
  state: string
  paid_at: string | null
  refunded_fen: number
  events: { from: string | null; to: string; reason: string }[]
}

describe('payments', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  async function buy(token: string, courseId: number, payMethod = 'wechat_h5') {
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(token),
      payload: { course_id: courseId, pay_method: payMethod },
    })
    const body = res.json<ApiBody<Checkout>>()
    expect(body.code).toBe(200)
    return body.data
  }

  async function order(token: string, orderNo: string) {
    return (await t().app.inject({ method: 'GET', url: `/api/orders/${orderNo}`, headers: headersOf(token) })).json<
      ApiBody<OrderDetail>
    >().data
  }

  /** A cashier form, posted the way a browser posts it. */
  async function submit(url: string, fields: Record<string, string>) {
    return t().app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    })
  }

  async function notifyWechat(n: { headers: Record<string, string>; body: string }) {
    return t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body })
  }

  async function outcomes(orderNo: string) {
    const rows = await t()
      .database.db.select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.orderNo, orderNo))
      .orderBy(paymentNotifications.id)
    return rows.map((r) => r.outcome)
  }

  async function refusedCount() {
    const rows = await t().database.db.execute<{ outcome: string; n: number }>(
      sql`select outcome, count(*)::int as n from payment_notifications where verified = false group by outcome`,
    )
    return Object.fromEntries(rows.rows.map((r) => [r.outcome, r.n])) as Record<string, number>
  }

  async function activeGrants(memberId: number, courseId: number) {
    const rows = await t()
      .database.db.select()
      .from(entitlements)
      .where(
        and(
          eq(entitlements.memberId, memberId),
          eq(entitlements.courseId, courseId),
          sql`${entitlements.revokedAt} is null`,
        ),
      )
    return rows
  }

  /** Marks a simulator trade paid without sending its notification (a notification lost on the way). */
  function paySilently(orderNo: string) {
    const trade = sims().wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${Date.now()}${Math.floor(Math.random() * 1e6)}`
    trade.successTime = clock.now()
    return trade
  }

  describe('WeChat Pay H5 through the simulator cashier', () => {
    it('pays on "确认支付", goes back to /payRedirect and unlocks the course', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { title: 'AE 特效', priceFen: 12900 })
      const video = await makeVideo(db, course)
      const d = await buy(m.token, course)
      const h5 = new URL(d.h5_url!)
      const page = await t().app.inject({ method: 'GET', url: `${h5.pathname}${h5.search}` })
      expect(page.statusCode).toBe(200)
      expect(page.body).toContain('确认支付')
      expect(page.body).toContain('129.00')
      expect(page.body).toContain('AE 特效')
      // The simulator's pages carry the site's icon (issue 10 §6).
      expect(page.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">')
      const trade = sims().wechat.trades.get(d.order_no)!
      const paid = await submit('/__sim/wechatpay/cashier/pay', {
        prepay_id: trade.prepayId,
        mode: 'h5',
        redirect_url: h5.searchParams.get('redirect_url')!,
      })
      expect(paid.statusCode).toBe(302)
      expect(paid.headers.location).toBe(`http://localhost:3000/payRedirect?order_no=${d.order_no}`)
      await settleSimulators(t().app)
      const o = await order(m.token, d.order_no)
      expect(o.state).toBe('paid')
      expect(o.events.map((e) => e.reason)).toEqual(['created', 'paid'])
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      expect((await t().app.services.canWatch(m.id, video)).reason).toBe('entitled')
      expect(await outcomes(d.order_no)).toEqual(['applied'])
      await expectLedgerConsistent(db)
    })

    it('cancel goes back without paying', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db))
      const trade = sims().wechat.trades.get(d.order_no)!
      const res = await submit('/__sim/wechatpay/cashier/cancel', {
        prepay_id: trade.prepayId,
        mode: 'h5',
        redirect_url: 'http://localhost:3000/payRedirect?order_no=x',
      })
      expect(res.statusCode).toBe(302)
      expect((await order(m.token, d.order_no)).state).toBe('pending')
    })
  })

  describe('WeChat Pay JSAPI bridge and Native', () => {
    it('serves the bridge script and a cashier that checks paySign', async () => {
      const script = await t().app.inject({ method: 'GET', url: '/__sim/wechatpay/bridge.js' })
      expect(script.headers['content-type']).toContain('javascript')
      expect(script.body).toContain('if (window.WeixinJSBridge) return;')
      expect(script.body).toContain('get_brand_wcpay_request:')

      const db = t().database.db
      const m = await makeMember(db)
      await db.execute(sql`update members set wx_openid = ${`o_jsapi_${m.id}`} where id = ${m.id}`)
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/pay/course',
        headers: headersOf(m.token),
        payload: { course_id: await makeCourse(db), pay_method: 'wechat_jsapi' },
      })
      const jsapi = res.json<ApiBody<{ jsapi: Record<string, string> }>>().data.jsapi
      const good = await t().app.inject({
        method: 'GET',
        url: `/__sim/wechatpay/jsapi?${new URLSearchParams(jsapi).toString()}`,
      })
      expect(good.body).toContain('确认支付')
      const forged = await t().app.inject({
        method: 'GET',
        url: `/__sim/wechatpay/jsapi?${new URLSearchParams({ ...jsapi, timeStamp: '1' }).toString()}`,
      })
      expect(forged.body).toContain('支付验证签名失败')
      expect(forged.body).toContain('"fail"')
    })

    it('pays a Native order from the scanned code page', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db), 'wechat_native')
      const code = new URL(d.code_url!)
      expect((await t().app.inject({ method: 'GET', url: `${code.pathname}${code.search}` })).body).toContain(
        '确认支付',
      )
      const trade = sims().wechat.trades.get(d.order_no)!
      const res = await submit('/__sim/wechatpay/cashier/pay', { prepay_id: trade.prepayId, mode: 'native' })
      expect(res.body).toContain('支付成功')
      await settleSimulators(t().app)
      expect((await order(m.token, d.order_no)).state).toBe('paid')
    })
  })

  describe('Alipay WAP through the simulator cashier', () => {
    it('opens the cashier from the signed redirect, pays, notifies and returns to return_url', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 1 })
      const d = await buy(m.token, course, 'alipay_wap')
      const gateway = new URL(d.redirect_url!)
      const page = await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
      expect(page.body).toContain('确认支付')
      expect(page.body).toContain('0.01')
      const token = sims().alipay.trades.get(d.order_no)!.token
      const paid = await submit('/__sim/alipay/cashier/pay', { token })
      expect(paid.statusCode).toBe(302)
      const back = new URL(paid.headers.location as string)
      expect(`${back.origin}${back.pathname}`).toBe('http://localhost:3000/payRedirect')
      expect(back.searchParams.get('order_no')).toBe(d.order_no)
      expect(back.searchParams.get('method')).toBe('alipay.trade.wap.pay.return')
      expect(back.searchParams.get('sign')).toBeTruthy()
      await settleSimulators(t().app)
      expect((await order(m.token, d.order_no)).state).toBe('paid')
      expect(await activeGrants(m.id, course)).toHaveLength(1)
    })

    it('refuses a tampered request at the gateway', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db), 'alipay_wap')
      const gateway = new URL(d.redirect_url!)
      const biz = JSON.parse(gateway.searchParams.get('biz_content')!) as Record<string, string>
      gateway.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }))
      const page = await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
      expect(page.body).toContain('isv.invalid-signature')
      expect(sims().alipay.trades.has(d.order_no)).toBe(false)
    })

    it('answers "success" once per payment and "failure" to a forged, changed or mismatched notification', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 8800 })
      const d = await buy(m.token, course, 'alipay_wap')
      const gateway = new URL(d.redirect_url!)
      await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
      const trade = sims().alipay.trades.get(d.order_no)!
      trade.status = 'TRADE_SUCCESS'
      trade.gmtPayment = clock.now()
      const form = sims().alipay.paymentNotification(trade)
      const send = (payload: string) =>
        t().app.inject({
          method: 'POST',
          url: '/api/pay/notify/alipay',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          payload,
        })
      const changed = new URLSearchParams(form)
      changed.set('total_amount', '0.01')
      expect((await send(changed.toString())).body).toBe('failure')
      const wrongAmount = sims().alipay.paymentNotification({ ...trade, total: 100 })
      expect((await send(wrongAmount)).body).toBe('failure')
      const otherApp = sims().alipay.paymentNotification(trade, { app_id: '2021000100000000' })
      expect((await send(otherApp)).body).toBe('failure')
      expect((await order(m.token, d.order_no)).state).toBe('pending')
      // A genuine payment of an order we do not have: "success" (Alipay stops sending it), recorded for staff.
      const unknown = sims().alipay.paymentNotification({ ...trade, outTradeNo: 'ZX2026010100000001' })
      expect((await send(unknown)).body).toBe('success')
      expect(await outcomes('ZX2026010100000001')).toEqual(['unknown_order'])
      for (let i = 0; i < 20; i++) expect((await send(form)).body).toBe('success')
      expect((await order(m.token, d.order_no)).state).toBe('paid')
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      const seen = await outcomes(d.order_no)
      expect(seen.filter((o) => o === 'applied')).toHaveLength(1)
      expect(seen.filter((o) => o === 'duplicate')).toHaveLength(19)
      expect(seen).toEqual(expect.arrayContaining(['amount_mismatch', 'merchant_mismatch']))
      const refused = await db
        .select()
        .from(paymentNotifications)
        .where(eq(paymentNotifications.outcome, 'bad_signature'))
      expect(refused.some((r) => r.raw.includes('total_amount=0.01') && r.verified === false)).toBe(true)
      await expectLedgerConsistent(db)
    })
  })

  describe('POST /api/pay/notify/wechat', () => {
    it('applies one of 20 identical notifications in sequence; the rest change nothing', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const d = await buy(m.token, course)
      const n = sims().wechat.paymentNotification(paySilently(d.order_no))
      for (let i = 0; i < 20; i++) {
        const res = await notifyWechat(n)
        expect(res.statusCode).toBe(204)
        expect(res.body).toBe('')
      }
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      expect((await order(m.token, d.order_no)).events.filter((e) => e.to === 'paid')).toHaveLength(1)
      await expectLedgerConsistent(db)
    })

    it('accepts notifications signed with the platform certificate as well as the WeChat Pay public key', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db))
      const certSim = createPaymentSimulators({ publicBase: () => '', now: clock.now, wechatSignWith: 'certificate' })
      const n = certSim.wechat.paymentNotification(paySilently(d.order_no))
      expect(n.headers['Wechatpay-Serial']).toBe('5157F09EFDC096DE15EBE81A47057A7232F1B8E1')
      expect((await notifyWechat(n)).statusCode).toBe(204)
      expect((await order(m.token, d.order_no)).state).toBe('paid')
    })

    it('refuses a changed body, a wrong signature and an old timestamp with 401 FAIL and changes nothing', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const d = await buy(m.token, course)
      const trade = paySilently(d.order_no)
      const n = sims().wechat.paymentNotification(trade)
      const refusedBefore = await refusedCount()
      const changed = await notifyWechat({
        headers: n.headers,
        body: n.body.replace('"event_type":"TRANSACTION.SUCCESS"', '"event_type":"TRANSACTION.SUCCESS" '),
      })
      expect(changed.statusCode).toBe(401)
      expect(changed.json()).toEqual({ code: 'FAIL', message: '失败' })
      const forged = await notifyWechat({
        headers: {
          ...n.headers,
          'Wechatpay-Signature': sims().wechat.paymentNotification(trade).headers['Wechatpay-Signature']!,
        },
        body: n.body,
      })
      expect(forged.statusCode).toBe(401)
      // Exactly five minutes old is too old (WeChat Pay's own SDKs refuse it too).
      const old = sims().wechat.paymentNotification(trade, {
        timestamp: Math.floor(clock.now().getTime() / 1000) - 300,
      })
      expect((await notifyWechat(old)).statusCode).toBe(401)
      const garbage = await t().app.inject({
        method: 'POST',
        url: '/api/pay/notify/wechat',
        headers: { 'content-type': 'application/json' },
        payload: '{"id":',
      })
      expect(garbage.statusCode).toBe(401)
      expect((await order(m.token, d.order_no)).state).toBe('pending')
      expect(await activeGrants(m.id, course)).toHaveLength(0)
      const refusedAfter = await refusedCount()
      expect({
        bad_signature: (refusedAfter.bad_signature ?? 0) - (refusedBefore.bad_signature ?? 0),
        bad_timestamp: (refusedAfter.bad_timestamp ?? 0) - (refusedBefore.bad_timestamp ?? 0),
      }).toEqual({ bad_signature: 3, bad_timestamp: 1 })
    })

    it('accepts a notification 299 s old', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db))
      const n = sims().wechat.paymentNotification(paySilently(d.order_no), {
        timestamp: Math.floor(clock.now().getTime() / 1000) - 299,
      })
      expect((await notifyWechat(n)).statusCode).toBe(204)
      expect((await order(m.token, d.order_no)).state).toBe('paid')
    })

    it('refuses a genuine notification with a wrong amount, appid or mchid; records one for an unknown order and stops its retries', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 9900 })
      const d = await buy(m.token, course)
      const trade = paySilently(d.order_no)
      const wrongAmount = await notifyWechat(
        sims().wechat.paymentNotification(trade, {
          transaction: { amount: { total: 1, payer_total: 1, currency: 'CNY' } },
        }),
      )
      expect(wrongAmount.statusCode).toBe(500)
      expect(wrongAmount.json()).toEqual({ code: 'FAIL', message: '失败' })
      expect(
        (await notifyWechat(sims().wechat.paymentNotification(trade, { transaction: { appid: 'wx_other' } })))
          .statusCode,
      ).toBe(500)
      expect(
        (await notifyWechat(sims().wechat.paymentNotification(trade, { transaction: { mchid: '1900000999' } })))
          .statusCode,
      ).toBe(500)
      // A genuine payment of an order we do not have: recorded for staff, answered as received (no retries).
      const unknown = await notifyWechat(
        sims().wechat.paymentNotification({ ...trade, outTradeNo: 'ZX2026010100000000' }),
      )
      expect(unknown.statusCode).toBe(204)
      expect(unknown.body).toBe('')
      expect(await outcomes(d.order_no)).toEqual(['amount_mismatch', 'merchant_mismatch', 'merchant_mismatch'])
      expect(await outcomes('ZX2026010100000000')).toEqual(['unknown_order'])
      expect((await order(m.token, d.order_no)).state).toBe('pending')
      // The genuine one still goes through afterwards.
      expect((await notifyWechat(sims().wechat.paymentNotification(trade))).statusCode).toBe(204)
      expect((await order(m.token, d.order_no)).state).toBe('paid')
    })
  })

  describe('VIP', () => {
    it('extends membership from max(now, current expiry) by the plan days', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const [plan] = await db.insert(vipPlans).values({ name: '月卡', days: 30, priceFen: 3900 }).returning()
      const payVip = async () => {
        const res = await t().app.inject({
          method: 'POST',
          url: '/api/pay/vip',
          headers: headersOf(m.token),
          payload: { plan_id: plan!.id, pay_method: 'wechat_h5' },
        })
        const no = res.json<ApiBody<Checkout>>().data.order_no
        expect((await notifyWechat(sims().wechat.paymentNotification(paySilently(no)))).statusCode).toBe(204)
      }
      const start = clock.now().getTime()
      await payVip()
      const [first] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
      expect(Math.abs(first!.expiresAt.getTime() - (start + 30 * 86_400_000))).toBeLessThan(5_000)
      await payVip()
      const [second] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
      expect(second!.expiresAt.getTime()).toBe(first!.expiresAt.getTime() + 30 * 86_400_000)
      // Lapsed: the next plan counts from now, not from the old expiry.
      await db
        .update(vipMemberships)
        .set({ expiresAt: new Date(start - 86_400_000) })
        .where(eq(vipMemberships.memberId, m.id))
      await payVip()
      const [third] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
      expect(Math.abs(third!.expiresAt.getTime() - (clock.now().getTime() + 30 * 86_400_000))).toBeLessThan(5_000)
    })
  })

  describe('amount orders', () => {
    it('are recorded as paid and grant nothing', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/pay/amount',
        headers: headersOf(m.token),
        payload: { amount_fen: 250000, title: '系统班学费', pay_method: 'wechat_h5' },
      })
      const no = res.json<ApiBody<Checkout>>().data.order_no
      expect((await notifyWechat(sims().wechat.paymentNotification(paySilently(no)))).statusCode).toBe(204)
      expect((await order(m.token, no)).state).toBe('paid')
      expect(await db.select().from(entitlements).where(eq(entitlements.memberId, m.id))).toEqual([])
    })
  })

  describe('sweeps and late payments', () => {
    it('closes an order after 30 minutes, at the provider too', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db))
      clock.advance(31 * 60_000)
      try {
        expect(await t().app.services.payments.closeExpired()).toBeGreaterThanOrEqual(1)
      } finally {
        clock.reset()
      }
      const o = await order(m.token, d.order_no)
      expect(o.state).toBe('closed')
      expect(o.events.at(-1)).toMatchObject({ from: 'pending', to: 'closed', reason: 'expired' })
      expect(sims().wechat.trades.get(d.order_no)!.state).toBe('CLOSED')
    })

    it('asks the provider about an order whose notification did not come and applies the payment once', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const d = await buy(m.token, course)
      const trade = paySilently(d.order_no)
      expect(await t().app.services.payments.reconcilePending()).toBe(0)
      clock.advance(3 * 60_000)
      try {
        expect(await t().app.services.payments.reconcilePending()).toBeGreaterThanOrEqual(1)
      } finally {
        clock.reset()
      }
      expect((await order(m.token, d.order_no)).state).toBe('paid')
      // The notification arriving late changes nothing.
      expect((await notifyWechat(sims().wechat.paymentNotification(trade))).statusCode).toBe(204)
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      expect(await outcomes(d.order_no)).toEqual(['applied', 'duplicate'])
    })

    it('the /payRedirect poll asks the provider itself', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const d = await buy(m.token, await makeCourse(db))
      paySilently(d.order_no)
      const res = await t().app.inject({
        method: 'GET',
        url: `/api/pay/course?order_no=${d.order_no}`,
        headers: headersOf(m.token),
      })
      expect(res.json<ApiBody<{ state: string }>>().data.state).toBe('paid')
    })

    it('re-opens and pays a closed order when a payment arrives and the course is still not owned', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const d = await buy(m.token, course)
      const trade = sims().wechat.trades.get(d.order_no)!
      await db.execute(sql`update orders set state = 'closed', closed_at = now() where order_no = ${d.order_no}`)
      trade.state = 'SUCCESS'
      trade.transactionId = '4200000000000000000000000001'
      expect((await notifyWechat(sims().wechat.paymentNotification(trade))).statusCode).toBe(204)
      const o = await order(m.token, d.order_no)
      expect(o.state).toBe('paid')
      expect(o.events.at(-1)).toMatchObject({ from: 'closed', to: 'paid', reason: 'late_payment_reopened' })
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      await expectLedgerConsistent(db)
    })

    it('refunds automatically a payment for a closed order whose course is owned by then, and completes on the refund notification', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 5000 })
      const d = await buy(m.token, course)
      const trade = sims().wechat.trades.get(d.order_no)!
      await db.execute(sql`update orders set state = 'closed', closed_at = now() where order_no = ${d.order_no}`)
      const admin = await insertEntitlement(db, {
        memberId: m.id,
        courseId: course,
        source: 'admin',
        grantedAt: clock.now(),
        expiresAt: null,
      })
      trade.state = 'SUCCESS'
      trade.transactionId = '4200000000000000000000000002'
      expect((await notifyWechat(sims().wechat.paymentNotification(trade))).statusCode).toBe(204)
      expect((await order(m.token, d.order_no)).state).toBe('refunding')
      await until(async () => (await order(m.token, d.order_no)).state === 'refunded')
      await settleSimulators(t().app)
      const o = await order(m.token, d.order_no)
      expect(o.refunded_fen).toBe(5000)
      expect(o.events.map((e) => e.reason)).toEqual(['created', 'late_payment_refund', 'refund_succeeded'])
      const [refund] = await db
        .select()
        .from(refunds)
        .where(eq(refunds.orderId, await orderId(d.order_no)))
      expect(refund).toMatchObject({
        kind: 'automatic',
        state: 'succeeded',
        amountFen: 5000,
        providerTxnId: '4200000000000000000000000002',
      })
      expect(sims().wechat.trades.get(d.order_no)!.refunded).toBe(5000)
      // The operator's grant is untouched.
      expect((await activeGrants(m.id, course)).map((e) => e.id)).toEqual([admin.id])
      await expectLedgerConsistent(db)
    })

    it('refunds a second payment of a paid order through the other provider', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db, { priceFen: 3000 })
      const d = await buy(m.token, course)
      expect((await notifyWechat(sims().wechat.paymentNotification(paySilently(d.order_no)))).statusCode).toBe(204)
      // The same order paid again at Alipay (a stale tab): build that trade through the real adapter.
      const alipay = createAlipay({
        appId: TestAlipay.appId,
        gateway: 'http://localhost:3000/__sim/alipay/gateway.do',
        privateKey: loadPrivateKey(TestAlipay.appPrivateKey),
        alipayPublicKey: loadPublicKey(TestAlipay.gatewayPublicKey),
        fetch: injectFetch(() => t().app),
        now: clock.now,
      })
      const { redirectUrl } = await alipay.prepay({
        method: 'alipay_wap',
        orderNo: d.order_no,
        description: 'x',
        amountFen: 3000,
        expiresAt: new Date(clock.now().getTime() + 600_000),
        notifyUrl: 'http://localhost:3000/api/pay/notify/alipay',
        returnUrl: 'http://localhost:3000/payRedirect',
        quitUrl: 'http://localhost:3000/',
        clientIp: '127.0.0.1',
      })
      const url = new URL(redirectUrl!)
      await t().app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })
      sims().alipay.pay(d.order_no)
      await settleSimulators(t().app)
      await until(
        async () =>
          (
            await db
              .select()
              .from(refunds)
              .where(and(eq(refunds.orderId, await orderId(d.order_no)), eq(refunds.state, 'succeeded')))
          ).length === 1,
      )
      const o = await order(m.token, d.order_no)
      expect(o.state).toBe('paid')
      expect(o.events.map((e) => e.reason)).toEqual(['created', 'paid', 'double_payment_refund'])
      expect(sims().alipay.trades.get(d.order_no)!.refunded).toBe(3000)
      expect(await activeGrants(m.id, course)).toHaveLength(1)
      await expectLedgerConsistent(db)
    })
  })

  describe('POST /api/pay/notify/wechat/refund', () => {
    it('refuses a forged refund notification', async () => {
      const res = await t().app.inject({
        method: 'POST',
        url: '/api/pay/notify/wechat/refund',
        headers: {
          'content-type': 'application/json',
          'wechatpay-serial': 'x',
          'wechatpay-signature': 'x',
          'wechatpay-timestamp': '1',
          'wechatpay-nonce': 'n',
        },
        payload: '{}',
      })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ code: 'FAIL', message: '失败' })
    })
  })

  async function orderId(orderNo: string) {
    const [row] = await t().database.db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, orderNo))
    return row!.id
  }
})

async function until(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}
