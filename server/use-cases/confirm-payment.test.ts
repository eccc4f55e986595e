import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { orderEvents, orders } from '#server/db/schema/orders.ts'
import { paymentNotifications } from '#server/db/schema/payments.ts'
import { pointEntries } from '#server/db/schema/points.ts'
import type { VerifiedPayment } from '#server/integrations/payments/payments.ts'
import { createPaymentProviders } from '#server/integrations/payments/providers.ts'
import { expectLedgerConsistent, headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { confirmPayment } from './confirm-payment.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'

// confirmPayment called directly (the notification endpoints and the provider queries go through it): a payment is
// applied at most once, whoever delivers it and however often.
describe('confirmPayment (server/use-cases/confirm-payment.ts)', () => {
  const { t, clock } = useCommerceApp()

  function deps(): CommerceDeps {
    const db = t().database.db
    return {
      db,
      transaction: (fn) => db.transaction(fn),
      config: t().config,
      providers: createPaymentProviders(t().config.payments, { fetch: injectFetch(() => t().app), now: clock.now }),
      now: clock.now,
    }
  }

  /** A member's pending WeChat Pay order for a new course. */
  async function pendingOrder(priceFen: number) {
    const db = t().database.db
    const m = await makeMember(db)
    const courseId = await makeCourse(db, { priceFen })
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: courseId, pay_method: 'wechat_h5' },
    })
    const order = res.json<ApiBody<{ order_no: string; amount_fen: number }>>().data
    return { m, courseId, orderNo: order.order_no, amountFen: order.amount_fen }
  }

  function payment(o: { orderNo: string; amountFen: number }, notificationId: string): VerifiedPayment {
    const { wechat } = t().config.payments
    return {
      notificationId,
      orderNo: o.orderNo,
      success: true,
      transactionId: `4200${o.orderNo.slice(2)}`,
      amountFen: o.amountFen,
      appId: wechat.appId,
      mchId: wechat.mchid,
      paidAt: clock.now(),
    }
  }

  async function recorded(orderNo: string) {
    const db = t().database.db
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, orderNo))
    const paid = await db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order!.id), eq(orderEvents.toState, 'paid')))
    const grants = await db.select().from(entitlements).where(eq(entitlements.sourceRef, orderNo))
    const earned = await db
      .select()
      .from(pointEntries)
      .where(and(eq(pointEntries.orderId, order!.id), eq(pointEntries.reason, 'order_earned')))
    const notes = await db
      .select({ id: paymentNotifications.notificationId, outcome: paymentNotifications.outcome })
      .from(paymentNotifications)
      .where(eq(paymentNotifications.orderNo, orderNo))
      .orderBy(paymentNotifications.id)
    return { state: order!.state, paid: paid.length, grants: grants.length, earned: earned.length, notes }
  }

  it('applies a payment once: concurrent deliveries, a later replay and a provider query of it change nothing', async () => {
    const o = await pendingOrder(9900)
    const p = payment(o, 'n-once')
    const answers = await Promise.all(Array.from({ length: 8 }, () => confirmPayment(deps(), 'wechat', p, '{}')))
    expect(answers.filter((a) => a.outcome === 'applied')).toHaveLength(1)
    expect(answers.every((a) => a.accepted && (a.outcome === 'applied' || a.outcome === 'duplicate'))).toBe(true)

    expect(await confirmPayment(deps(), 'wechat', p, '{}')).toEqual({ accepted: true, outcome: 'duplicate' })
    // The same payment found by the /payRedirect poll or a sweep: another notification id, the same transaction.
    const query = { ...p, notificationId: `query:${p.transactionId}` }
    expect(await confirmPayment(deps(), 'wechat', query, '{}')).toEqual({ accepted: true, outcome: 'duplicate' })

    const r = await recorded(o.orderNo)
    expect(r).toMatchObject({ state: 'paid', paid: 1, grants: 1, earned: 1 })
    expect(r.notes.filter((n) => n.outcome === 'applied')).toEqual([{ id: 'n-once', outcome: 'applied' }])
    expect(r.notes.filter((n) => n.outcome === 'duplicate')).toHaveLength(answers.length - 1 + 2)
    await expectLedgerConsistent(t().database.db)
  })

  it('refuses a payment of another amount or merchant, and a failed trade, without changing the order', async () => {
    const o = await pendingOrder(5000)
    const p = payment(o, 'n-wrong')
    expect(await confirmPayment(deps(), 'wechat', { ...p, amountFen: 4999 }, '{}')).toMatchObject({
      accepted: false,
      outcome: 'amount_mismatch',
    })
    expect(await confirmPayment(deps(), 'wechat', { ...p, mchId: 'another' }, '{}')).toMatchObject({
      accepted: false,
      outcome: 'merchant_mismatch',
    })
    expect(await confirmPayment(deps(), 'wechat', { ...p, success: false }, '{}')).toEqual({
      accepted: true,
      outcome: 'not_success',
    })
    const r = await recorded(o.orderNo)
    expect(r).toMatchObject({ state: 'pending', paid: 0, grants: 0, earned: 0 })
    expect(r.notes.map((n) => n.outcome)).toEqual(['amount_mismatch', 'merchant_mismatch', 'not_success'])
    // The right payment still applies afterwards.
    expect(await confirmPayment(deps(), 'wechat', p, '{}')).toEqual({ accepted: true, outcome: 'applied' })
    const [{ n }] = (
      await t().database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from orders where order_no = ${o.orderNo} and state = 'paid'`,
      )
    ).rows as [{ n: number }]
    expect(n).toBe(1)
  })
})
