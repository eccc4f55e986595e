import { and, asc, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { memberCoupons } from '#server/db/schema/coupons.ts'
import { orderEvents, orders } from '#server/db/schema/orders.ts'
import { paymentNotifications } from '#server/db/schema/payments.ts'
import { pointBalances, pointEntries } from '#server/db/schema/points.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'
import type { VerifiedPayment } from '#server/integrations/payments/payments.ts'
import { lockOrderByNo, orderItems, recordOrderEvent, transitionOrder } from '#server/modules/orders/orders.service.ts'
import { claimNotificationOnce } from '#server/modules/payments/payments.service.ts'
import { expectLedgerConsistent, headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { payPendingOrder } from './confirm-payment.ts'
import { fulfilOrder } from './fulfil-order.ts'

/** A payment as the fast path and the general path get it, with the time it is applied at. */
interface Payment {
  verified: VerifiedPayment
  raw: string
  at: Date
}

// payPendingOrder (confirm-payment.ts) pays the common case in one statement composed from each owning module's
// part (orders settlePendingOrder); the general path does the same with lockOrderByNo + transitionOrder +
// fulfilOrder + recordOrderEvent in a transaction. These tests hold the two to the same result.
describe('a payment applied by the fast path (payPendingOrder)', () => {
  const { t, clock } = useCommerceApp({ POINTS_MAX_PERCENT: '100' })
  const rules = { fenPerPoint: 1, maxPercent: 100, earnPerYuan: 1 }

  /** The fast path's dependencies, its clock stopped at `at`. */
  const deps = (at: Date) => {
    const db = t().database.db
    return {
      db,
      transaction: <T>(fn: (tx: typeof db) => Promise<T>) => db.transaction(fn),
      config: t().config,
      now: () => at,
    }
  }
  const pay = (p: Payment) => payPendingOrder(deps(p.at), 'wechat', p.verified, p.raw)

  const call = async <T>(url: string, token: string, payload: Record<string, unknown>) =>
    (await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })).json<ApiBody<T>>()

  /** A member with a course order (coupon and points) and a VIP order pending, and a VIP membership running. */
  async function shopper(templateId: number, adminToken: string, courseId: number, planId: number, vipUntil: Date) {
    const db = t().database.db
    const m = await makeMember(db)
    await call('/api/admin/points/adjust', adminToken, { member_id: m.id, delta: 500, note: '测试' })
    const coupon = (await call<{ coupon_id: number }>('/api/coupon', m.token, { template_id: templateId })).data
      .coupon_id
    const course = await call<{ order_no: string; amount_fen: number }>('/api/pay/course', m.token, {
      course_id: courseId,
      pay_method: 'wechat_h5',
      coupon_id: coupon,
      points: 300,
    })
    const vip = await call<{ order_no: string; amount_fen: number }>('/api/pay/vip', m.token, {
      plan_id: planId,
      pay_method: 'wechat_h5',
    })
    expect([course.code, vip.code]).toEqual([200, 200])
    await db.insert(vipMemberships).values({ memberId: m.id, expiresAt: vipUntil, updatedAt: vipUntil })
    return { member: m, orders: [course.data, vip.data] }
  }

  function payment(order: { order_no: string; amount_fen: number }, suffix: string, at = clock.now()): Payment {
    return {
      verified: {
        notificationId: `n-${order.order_no}-${suffix}`,
        orderNo: order.order_no,
        success: true,
        transactionId: `4200TXN${order.amount_fen}`,
        amountFen: order.amount_fen,
        appId: 'wx',
        mchId: 'mch',
        paidAt: at,
      },
      raw: '{}',
      at,
    }
  }

  /** What the general path of confirm-payment.ts does for a pending order, step by step. */
  async function payGenerally({ verified: p, raw, at }: Payment) {
    await t().database.db.transaction(async (tx) => {
      expect(
        await claimNotificationOnce(tx, {
          provider: 'wechat',
          kind: 'payment',
          notificationId: p.notificationId,
          orderNo: p.orderNo,
          raw,
          createdAt: at,
        }),
      ).not.toBeNull()
      const order = (await lockOrderByNo(tx, p.orderNo))!
      const paid = await transitionOrder(
        tx,
        order.id,
        ['pending'],
        'paid',
        { paidAt: at, closedAt: null, provider: 'wechat', providerTxnId: p.transactionId },
        at,
      )
      const granted = await fulfilOrder(tx, paid!, await orderItems(tx, [order.id]), at, rules)
      const data = { transaction_id: p.transactionId, notification_id: p.notificationId, ...granted }
      await recordOrderEvent(tx, {
        orderId: order.id,
        fromState: 'pending',
        toState: 'paid',
        reason: 'paid',
        actor: 'provider:wechat',
        data,
        createdAt: at,
      })
    })
  }

  /** Everything a payment writes for a member, with the member's own ids taken out. */
  async function record(memberId: number, orderNos: string[]) {
    const db = t().database.db
    const result: Record<string, unknown>[] = []
    for (const no of orderNos) {
      const [o] = await db.select().from(orders).where(eq(orders.orderNo, no))
      const events = await db
        .select()
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, o!.id), eq(orderEvents.toState, 'paid')))
      const [note] = await db.select().from(paymentNotifications).where(eq(paymentNotifications.orderNo, no))
      result.push({
        order: {
          state: o!.state,
          paidAt: o!.paidAt,
          closedAt: o!.closedAt,
          provider: o!.provider,
          txn: o!.providerTxnId,
          updatedAt: o!.updatedAt,
        },
        events: events.map((e) => ({
          from: e.fromState,
          reason: e.reason,
          actor: e.actor,
          at: e.createdAt,
          data: { ...e.data, notification_id: 'n' },
        })),
        notification: { outcome: note!.outcome, verified: note!.verified, at: note!.createdAt },
      })
    }
    const [balance] = await db.select().from(pointBalances).where(eq(pointBalances.memberId, memberId))
    // What the payments earned (the checkout's own entries differ in time and actor).
    const entries = await db
      .select()
      .from(pointEntries)
      .where(and(eq(pointEntries.memberId, memberId), eq(pointEntries.reason, 'order_earned')))
      .orderBy(asc(pointEntries.id))
    const coupons = await db.select().from(memberCoupons).where(eq(memberCoupons.memberId, memberId))
    const grants = await db.select().from(entitlements).where(eq(entitlements.memberId, memberId))
    const [vip] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, memberId))
    return {
      orders: result,
      balance: balance!.balance,
      entries: entries.map((e) => ({
        delta: e.delta,
        after: e.balanceAfter,
        reason: e.reason,
        actor: e.actor,
        at: e.createdAt,
      })),
      coupons: coupons.map((c) => ({ state: c.state, usedAt: c.usedAt })),
      grants: grants.map((g) => ({
        course: g.courseId,
        source: g.source,
        at: g.grantedAt,
        expires: g.expiresAt,
        revoked: g.revokedAt,
      })),
      vip: vip!.expiresAt,
    }
  }

  it('records exactly what the general path records: grants, VIP days, coupon, points, event', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const templateId = (
      await call<{ id: number }>('/api/admin/coupon-templates', admin.token, {
        name: '立减',
        kind: 'amount',
        amount_off_fen: 500,
        valid_days: 3,
      })
    ).data.id
    const courseId = await makeCourse(db, { priceFen: 3000 })
    const [plan] = await db.insert(vipPlans).values({ name: '月卡', days: 30, priceFen: 3900 }).returning()
    const vipUntil = new Date(clock.now().getTime() + 5 * 86_400_000)
    const a = await shopper(templateId, admin.token, courseId, plan!.id, vipUntil)
    const b = await shopper(templateId, admin.token, courseId, plan!.id, vipUntil)

    const at = clock.now()
    for (const o of a.orders) expect(await pay(payment(o, 'a', at))).toBe(true)
    for (const o of b.orders) await payGenerally(payment(o, 'b', at))

    const fast = await record(
      a.member.id,
      a.orders.map((o) => o.order_no),
    )
    const general = await record(
      b.member.id,
      b.orders.map((o) => o.order_no),
    )
    expect(fast).toEqual(general)
    // And what that is, so that both cannot drift together unnoticed.
    expect(fast.orders.map((o) => (o.events as { data: Record<string, unknown> }[])[0]!.data)).toEqual([
      {
        transaction_id: '4200TXN2200',
        notification_id: 'n',
        courses: [courseId],
        entitlements_added: 1,
        points_earned: 22,
      },
      {
        transaction_id: '4200TXN3900',
        notification_id: 'n',
        vip_days: 30,
        vip_expires_at: new Date(vipUntil.getTime() + 30 * 86_400_000).toISOString(),
        points_earned: 39,
      },
    ])
    expect(fast.coupons).toEqual([{ state: 'used', usedAt: at }])
    expect(fast.balance).toBe(500 - 300 + 22 + 39)
    await expectLedgerConsistent(db)
  })

  it('changes nothing for an order that is not a plain pending one, or a notification applied before', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const owned = await makeCourse(db, { priceFen: 1000 })
    const other = await makeCourse(db, { priceFen: 1000 })
    const buy = async (courseId: number) =>
      (
        await call<{ order_no: string; amount_fen: number }>('/api/pay/course', m.token, {
          course_id: courseId,
          pay_method: 'wechat_h5',
        })
      ).data
    const first = await buy(owned)
    const second = await buy(other)
    // Owned by now (granted by staff after the order was made): the general path refunds it, this one must not pay.
    await db.insert(entitlements).values({ memberId: m.id, courseId: owned, source: 'admin', grantedAt: clock.now() })
    const before = await db.execute(sql`select order_no, state from orders where member_id = ${m.id} order by id`)

    const changed = (p: Payment, change: Partial<VerifiedPayment>) => ({ ...p, verified: { ...p.verified, ...change } })
    expect(await pay(payment(first, 'x'))).toBe(false)
    expect(await pay(changed(payment(second, 'y'), { amountFen: second.amount_fen - 1 }))).toBe(false)
    expect(await pay(changed(payment(second, 'z'), { orderNo: 'ZX000000000000000000' }))).toBe(false)
    // The notification was applied already (to whatever): the claim fails and the whole statement with it.
    await claimNotificationOnce(db, {
      provider: 'wechat',
      kind: 'payment',
      notificationId: 'n-applied',
      orderNo: second.order_no,
      raw: '{}',
      createdAt: clock.now(),
    })
    expect(await pay(changed(payment(second, 'w'), { notificationId: 'n-applied' }))).toBe(false)

    expect(
      (await db.execute(sql`select order_no, state from orders where member_id = ${m.id} order by id`)).rows,
    ).toEqual(before.rows)
    const paidEvents = await db.execute(
      sql`select e.id from order_events e join orders o on o.id = e.order_id where o.member_id = ${m.id} and e.to_state = 'paid'`,
    )
    expect(paidEvents.rows).toHaveLength(0)
    expect(
      await db
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.memberId, m.id), eq(entitlements.source, 'purchase'))),
    ).toHaveLength(0)
    const notes = await db.execute(
      sql`select notification_id from payment_notifications where order_no in (${first.order_no}, ${second.order_no}, 'ZX000000000000000000')`,
    )
    expect(notes.rows).toEqual([{ notification_id: 'n-applied' }])
    await expectLedgerConsistent(db)
  })
  it('leaves a course the member owns through a system course to the general path, which refunds its share', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const part = await makeCourse(db, { priceFen: 1000 })
    const programme = await makeCourse(db, { priceFen: 5000, type: 'system' })
    const order = (
      await call<{ order_no: string; amount_fen: number }>('/api/pay/course', m.token, {
        course_id: part,
        pay_method: 'wechat_h5',
      })
    ).data
    // After the order was made, the course joins a programme the member holds.
    await db.insert(systemCourseItems).values({ systemCourseId: programme, courseId: part, sort: 0 })
    await db
      .insert(entitlements)
      .values({ memberId: m.id, courseId: programme, source: 'admin', grantedAt: clock.now() })

    expect(await pay(payment(order, 'sys'))).toBe(false)
    const [row] = await db.select({ state: orders.state }).from(orders).where(eq(orders.orderNo, order.order_no))
    expect(row!.state).toBe('pending')
    expect(
      await db
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.memberId, m.id), eq(entitlements.source, 'purchase'))),
    ).toHaveLength(0)
    await expectLedgerConsistent(db)
  })
})
