import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { orders } from '#server/db/schema/orders.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { runPaymentSweeps } from './sweeps.ts'
import { expectLedgerConsistent, headersOf, useCommerceApp, type ApiBody } from './testing.ts'

describe('money under concurrency (real PostgreSQL)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  async function buy(token: string, url: string, payload: Record<string, unknown>) {
    const res = await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })
    const body = res.json<ApiBody<{ order_no: string; redirect_url: string | null }>>()
    expect(body.code).toBe(200)
    return body.data
  }

  function paySilently(orderNo: string) {
    const trade = sims().wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`
    trade.successTime = clock.now()
    return trade
  }

  const notify = (n: { headers: Record<string, string>; body: string }) =>
    t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body })

  async function paidEvents(orderNo: string) {
    const r = await t().database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from order_events e join orders o on o.id = e.order_id
      where o.order_no = ${orderNo} and e.to_state = 'paid'`)
    return r.rows[0]!.n
  }

  it('20 identical WeChat Pay notifications at once: one payment, one grant', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db)
    const d = await buy(m.token, '/api/pay/course', { course_id: course, pay_method: 'wechat_h5' })
    const n = sims().wechat.paymentNotification(paySilently(d.order_no))
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n)))
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(204))
    expect(await paidEvents(d.order_no)).toBe(1)
    const grants = await db.select().from(entitlements).where(eq(entitlements.memberId, m.id))
    expect(grants).toHaveLength(1)
    const log = await db.execute<{ outcome: string; n: number }>(
      sql`select outcome, count(*)::int as n from payment_notifications where order_no = ${d.order_no} group by outcome order by outcome`,
    )
    expect(log.rows).toEqual([
      { outcome: 'applied', n: 1 },
      { outcome: 'duplicate', n: 19 },
    ])
    await expectLedgerConsistent(db)
  })

  it('20 identical Alipay notifications at once: one payment, one grant', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db)
    const d = await buy(m.token, '/api/pay/course', { course_id: course, pay_method: 'alipay_wap' })
    const gateway = new URL(d.redirect_url!)
    await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
    const trade = sims().alipay.trades.get(d.order_no)!
    trade.status = 'TRADE_SUCCESS'
    const form = sims().alipay.paymentNotification(trade)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t().app.inject({
          method: 'POST',
          url: '/api/pay/notify/alipay',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: form,
        }),
      ),
    )
    expect(answers.map((a) => a.body)).toEqual(Array(20).fill('success'))
    expect(await paidEvents(d.order_no)).toBe(1)
    expect(await db.select().from(entitlements).where(eq(entitlements.memberId, m.id))).toHaveLength(1)
    await expectLedgerConsistent(db)
  })

  it('notifications with different ids, provider queries and the expiry sweep racing for one payment: paid once', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db)
    const d = await buy(m.token, '/api/pay/course', { course_id: course, pay_method: 'wechat_h5' })
    const trade = paySilently(d.order_no)
    const [row] = await db.select().from(orders).where(eq(orders.orderNo, d.order_no))
    await Promise.all([
      ...Array.from({ length: 10 }, () => notify(sims().wechat.paymentNotification(trade))),
      ...Array.from({ length: 10 }, () => t().app.services.payments.reconcile(row!)),
    ])
    expect(await paidEvents(d.order_no)).toBe(1)
    expect(await db.select().from(entitlements).where(eq(entitlements.memberId, m.id))).toHaveLength(1)
    await expectLedgerConsistent(db)
  })

  it('200 notifications for 10 orders of 10 members at once: each order paid once', async () => {
    const db = t().database.db
    const bought: { member: number; course: number; orderNo: string }[] = []
    for (let i = 0; i < 10; i++) {
      const m = await makeMember(db)
      const course = await makeCourse(db)
      bought.push({
        member: m.id,
        course,
        orderNo: (await buy(m.token, '/api/pay/course', { course_id: course, pay_method: 'wechat_h5' })).order_no,
      })
    }
    const notifications = bought.map((b) => sims().wechat.paymentNotification(paySilently(b.orderNo)))
    const answers = await Promise.all(notifications.flatMap((n) => Array.from({ length: 20 }, () => notify(n))))
    expect(answers.every((a) => a.statusCode === 204)).toBe(true)
    for (const b of bought) expect(await paidEvents(b.orderNo)).toBe(1)
    await expectLedgerConsistent(db)
  })

  it('two "buy" taps at once from each of 10 members: one order each', async () => {
    const db = t().database.db
    const course = await makeCourse(db)
    const buyers = await Promise.all(Array.from({ length: 10 }, () => makeMember(db)))
    const answers = await Promise.all(
      buyers.flatMap((m) =>
        [0, 1].map(async () => ({
          member: m.id,
          order: await buy(m.token, '/api/pay/course', { course_id: course, pay_method: 'wechat_h5' }),
        })),
      ),
    )
    for (const m of buyers)
      expect(new Set(answers.filter((a) => a.member === m.id).map((a) => a.order.order_no)).size).toBe(1)
    const counts = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where target = ${`course:${course}`}`,
    )
    expect(counts.rows[0]!.n).toBe(10)
    await expectLedgerConsistent(db)
  })

  it('20 notifications of one VIP order at once add the plan days once', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const [plan] = await db.insert(vipPlans).values({ name: '季卡', days: 90, priceFen: 9900 }).returning()
    const d = await buy(m.token, '/api/pay/vip', { plan_id: plan!.id, pay_method: 'wechat_h5' })
    const before = clock.now().getTime()
    const n = sims().wechat.paymentNotification(paySilently(d.order_no))
    await Promise.all(Array.from({ length: 20 }, () => notify(n)))
    const [vip] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    const days = (vip!.expiresAt.getTime() - before) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(90)
    expect(days).toBeLessThan(90.01)
  })

  it('runs the sweeps in one process at a time', async () => {
    const db = t().database.db
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let locked!: () => void
    const isLocked = new Promise<void>((r) => (locked = r))
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(727401)`)
      locked()
      await held
    })
    await isLocked
    expect(await runPaymentSweeps(t().app.services)).toBeNull()
    release()
    await holder
    expect(Object.keys((await runPaymentSweeps(t().app.services)) ?? {}).sort()).toEqual([
      'closed',
      'reconciled',
      'refunds',
    ])
  })
})
