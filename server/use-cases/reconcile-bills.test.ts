import { describe, expect, it } from 'vitest'
import { createPaymentProviders } from '#server/integrations/payments/providers.ts'
import { runDailyReconciliation } from '#server/modules/payments/reconciliation-job.ts'
import {
  expectLedgerConsistent,
  headersOf,
  paidCourse,
  settleSimulators,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { beijingDate, beijingDayFromText } from '#shared/time.ts'

interface Difference {
  provider: string
  bill_date: string
  kind: string
  subject: string
  order_no: string
  refund_no: string | null
  our_fen: number | null
  their_fen: number | null
  our_state: string | null
  their_state: string | null
}

interface Run {
  provider: string
  bill_date: string
  state: string
  bill_payments: number
  bill_refunds: number
  differences: number
  error: string | null
}

const HOUR = 3600_000
/** A past Beijing day for the payments (sessions made now stay valid on it). */
const day = beijingDate(new Date(Date.now() - 5 * 24 * HOUR))
const dayStart = beijingDayFromText(day)

describe('the daily reconciliation of the providers’ bills (server/use-cases/reconcile-bills.ts)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) =>
    (await t().app.inject({ method, url, headers: headersOf(token), payload })).json<ApiBody<T>>()

  it('lists a payment the provider has and we do not, an amount that differs, and one of ours it does not have', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    clock.set(new Date(dayStart.getTime() + 12 * HOUR))
    let runs: Run[]
    let differences: Difference[]
    try {
      const matched = await paidCourse(t, { priceFen: 10000 })
      const differs = await paidCourse(t, { priceFen: 5000 })
      const notThere = await paidCourse(t, { priceFen: 3000 })
      const alipay = await paidCourse(t, { payMethod: 'alipay_wap', priceFen: 8800 })
      // A payment WeChat Pay took for an order of no one here (another system on the same merchant, a test): its
      // notification is recorded for staff and answered as received.
      const providers = createPaymentProviders(t().app.services.config.payments, {
        fetch: injectFetch(() => t().app),
        now: clock.now,
      })
      const stranger = `ZX${day.replaceAll('-', '')}9900000001`
      await providers.wechat.prepay({
        method: 'wechat_native',
        orderNo: stranger,
        description: '别处的订单',
        amountFen: 4200,
        expiresAt: new Date(clock.now().getTime() + HOUR),
        notifyUrl: 'http://localhost:3000/api/pay/notify/wechat',
        returnUrl: 'http://localhost:3000/',
        quitUrl: 'http://localhost:3000/',
        clientIp: '203.0.113.9',
      })
      const delivery = sims().wechat.pay(stranger)
      await settleSimulators(t().app)
      expect(delivery).toMatchObject({ delivered: true, attempts: 1 })
      const notices = await call<{ list: { order_no: string; outcome: string; verified: boolean }[] }>(
        'GET',
        '/api/admin/payment-notifications?outcome=unknown_order',
        admin.token,
      )
      expect(notices.data.list).toContainEqual(
        expect.objectContaining({ order_no: stranger, outcome: 'unknown_order', verified: true }),
      )
      // WeChat Pay's record of one payment says another amount; another payment it has no record of.
      sims().wechat.trades.get(differs.orderNo)!.total = 4500
      sims().wechat.trades.delete(notThere.orderNo)

      // The next morning before ten the day's bills are not due (the days before are); after ten the job
      // reconciles both providers.
      clock.set(new Date(dayStart.getTime() + 33 * HOUR))
      const early = (await runDailyReconciliation(t().app.services))!
      expect(early.map((r) => r.bill_date)).not.toContain(day)
      expect(early.length).toBeGreaterThan(0)
      clock.set(new Date(dayStart.getTime() + 35 * HOUR))
      const done = (await runDailyReconciliation(t().app.services))!
      expect(done.filter((r) => r.bill_date === day)).toEqual([
        expect.objectContaining({ provider: 'wechat', state: 'done', bill_payments: 3, differences: 3 }),
        expect.objectContaining({ provider: 'alipay', state: 'done', bill_payments: 1, differences: 0 }),
      ])
      // Once done, a day is not reconciled again by the job.
      expect(await runDailyReconciliation(t().app.services)).toEqual([])
      runs = (await call<{ list: Run[] }>('GET', '/api/admin/reconciliation/runs?provider=wechat', admin.token)).data
        .list
      differences = (
        await call<{ list: Difference[] }>(
          'GET',
          `/api/admin/reconciliation/differences?bill_date=${day}&provider=wechat`,
          admin.token,
        )
      ).data.list
      expect(differences.find((d) => d.order_no === matched.orderNo)).toBeUndefined()
      expect(differences.find((d) => d.order_no === alipay.orderNo)).toBeUndefined()
      expect(differences).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'missing_ours',
            subject: 'payment',
            order_no: stranger,
            their_fen: 4200,
            our_fen: null,
          }),
          expect.objectContaining({
            kind: 'amount_differs',
            order_no: differs.orderNo,
            our_fen: 5000,
            their_fen: 4500,
          }),
          expect.objectContaining({
            kind: 'missing_theirs',
            order_no: notThere.orderNo,
            our_fen: 3000,
            our_state: 'paid',
          }),
        ]),
      )
      expect(differences).toHaveLength(3)
    } finally {
      clock.reset()
    }
    expect(runs.find((r) => r.bill_date === day)).toMatchObject({ state: 'done', differences: 3, error: null })
    await expectLedgerConsistent(db)
  })

  it('compares refunds, replaces a day’s differences when run again, and records a bill it cannot get', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const next = beijingDate(new Date(dayStart.getTime() + 36 * HOUR))
    const nextStart = beijingDayFromText(next)
    clock.set(new Date(nextStart.getTime() + 9 * HOUR))
    try {
      const paid = await paidCourse(t, { payMethod: 'alipay_wap', priceFen: 6000 })
      const asked = await call<{ refund_no: string }>('POST', '/api/refunds', paid.m.token, {
        order_no: paid.orderNo,
        reason: '不想学了',
      })
      const approved = await call<{ state: string }>(
        'POST',
        `/api/admin/refunds/${asked.data.refund_no}/approve`,
        admin.token,
        { amount_fen: 2000 },
      )
      expect(approved.data.state).toBe('succeeded')
      // Today's bill does not exist yet: refused before asking.
      expect(
        await call('POST', '/api/admin/reconciliation/runs', admin.token, { provider: 'alipay', bill_date: next }),
      ).toMatchObject({ code: 400, msg: '只能对账今天以前的账单' })

      clock.set(new Date(nextStart.getTime() + 34 * HOUR))
      const run = async () =>
        (
          await call<Run>('POST', '/api/admin/reconciliation/runs', admin.token, {
            provider: 'alipay',
            bill_date: next,
          })
        ).data
      expect(await run()).toMatchObject({ state: 'done', bill_payments: 1, bill_refunds: 1, differences: 0 })
      // Alipay's record of the refund says another amount: run again, the day's differences are replaced.
      sims().alipay.trades.get(paid.orderNo)!.refunds.get(asked.data.refund_no)!.amount = 2500
      expect(await run()).toMatchObject({ state: 'done', differences: 1 })
      expect(await run()).toMatchObject({ state: 'done', differences: 1 })
      const list = (
        await call<{ list: Difference[] }>(
          'GET',
          `/api/admin/reconciliation/differences?bill_date=${next}&provider=alipay`,
          admin.token,
        )
      ).data.list
      expect(list).toEqual([
        expect.objectContaining({
          kind: 'amount_differs',
          subject: 'refund',
          order_no: paid.orderNo,
          refund_no: asked.data.refund_no,
          our_fen: 2000,
          their_fen: 2500,
        }),
      ])
      // A bill that cannot be had: a failed run with why, for staff; what the last run found stays listed.
      sims().alipay.faults.billError = { subCode: 'isp.bill_not_exist', subMsg: '账单不存在' }
      try {
        const failed = await run()
        expect(failed.state).toBe('failed')
        expect(failed.error).toContain('isp.bill_not_exist')
      } finally {
        sims().alipay.faults.billError = null
      }
      const kept = await call<{ list: Difference[] }>(
        'GET',
        `/api/admin/reconciliation/differences?bill_date=${next}`,
        admin.token,
      )
      expect(kept.data.list).toHaveLength(1)
    } finally {
      clock.reset()
    }
  })

  it('is for admins only', async () => {
    const staff = await makeMember(t().database.db, 'staff')
    for (const url of [
      '/api/admin/reconciliation/runs',
      '/api/admin/reconciliation/differences',
      '/api/admin/payment-notifications',
    ])
      expect((await call('GET', url, staff.token)).code).toBe(403)
    expect(
      (await call('POST', '/api/admin/reconciliation/runs', staff.token, { provider: 'wechat', bill_date: day })).code,
    ).toBe(403)
  })

  it('refuses wrong types, missing fields and oversized input with 400 and a message, changing nothing', async () => {
    const admin = await makeMember(t().database.db, 'admin')
    const runsNow = async () =>
      (await call<{ list: unknown[] }>('GET', '/api/admin/reconciliation/runs?limit=50', admin.token)).data.list
    const before = await runsNow()
    const refused = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const body = await call(method, url, admin.token, payload)
      expect(body.code, url).toBe(400)
      expect(body.msg, url).toMatch(/[\u4e00-\u9fff]/)
    }
    await refused('POST', '/api/admin/reconciliation/runs', { provider: 'paypal', bill_date: day })
    await refused('POST', '/api/admin/reconciliation/runs', { provider: 'wechat' })
    await refused('POST', '/api/admin/reconciliation/runs', { provider: 'wechat', bill_date: 20261101 })
    await refused('POST', '/api/admin/reconciliation/runs', { provider: 'wechat', bill_date: '2026-13-45' })
    await refused('GET', '/api/admin/reconciliation/differences?kind=everything')
    await refused('GET', '/api/admin/reconciliation/runs?limit=100000')
    await refused('GET', `/api/admin/payment-notifications?order_no=${'9'.repeat(200)}`)
    expect(await runsNow()).toEqual(before)
  })
})
