import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { memberCoupons } from '#server/db/schema/coupons.ts'
import { refunds } from '#server/db/schema/refunds.ts'
import { entitlements } from '#server/db/schema/access.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { expectLedgerConsistent, headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

interface Refund {
  refund_no: string
  order_no: string
  state: string
  amount_fen: number
  completed_at: string | null
}

interface Checkout {
  order_no: string
  state: string
  amount_fen: number
  points_used: number
  pay_method: string
}

interface OrderDetail {
  state: string
  refunded_fen: number
  events: { from: string | null; to: string; reason: string; actor?: string }[]
}

/** Orders paid with points and/or a coupon alone (amount 0, pay_method points or free): refunds move no money. */
describe('refunds of orders paid without money', () => {
  // Points may pay a whole order here, so that an order can be paid with points alone.
  const { t, clock } = useCommerceApp({ POINTS_MAX_PERCENT: '100' })
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  async function balance(token: string) {
    return (
      await call<{ balance: number; list: { reason: string; delta: number; order_no: string | null }[] }>(
        'GET',
        '/api/points',
        token,
      )
    ).body.data
  }

  async function activeGrants(memberId: number, courseId: number) {
    return t()
      .database.db.select()
      .from(entitlements)
      .where(
        and(
          eq(entitlements.memberId, memberId),
          eq(entitlements.courseId, courseId),
          sql`${entitlements.revokedAt} is null`,
        ),
      )
  }

  /** A member with points and a claimed coupon buys a course paying nothing (points and/or the coupon). */
  async function boughtWithoutMoney(opts: { priceFen: number; points: number; couponOffFen?: number }) {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 2000, note: '活动赠送' }))
        .body.code,
    ).toBe(200)
    let couponId: number | null = null
    if (opts.couponOffFen) {
      const template = (
        await call<{ id: number }>('POST', '/api/admin/coupon-templates', admin.token, {
          name: '立减券',
          kind: 'amount',
          amount_off_fen: opts.couponOffFen,
          valid_days: 30,
        })
      ).body.data.id
      couponId = (await call<{ coupon_id: number }>('POST', '/api/coupon', m.token, { template_id: template })).body
        .data.coupon_id
    }
    const course = await makeCourse(db, { priceFen: opts.priceFen })
    const video = await makeVideo(db, course, { durationSeconds: 600 })
    const d = (
      await call<Checkout>('POST', '/api/pay/course', m.token, {
        course_id: course,
        pay_method: 'wechat_h5',
        coupon_id: couponId,
        points: opts.points,
      })
    ).body
    expect(d).toMatchObject({ code: 200, data: { state: 'paid', amount_fen: 0 } })
    return { admin, m, course, video, couponId, orderNo: d.data.order_no, payMethod: d.data.pay_method }
  }

  it('points and a coupon: approval completes at once, the points and the coupon come back, access goes', async () => {
    const db = t().database.db
    const { admin, m, course, couponId, orderNo, payMethod } = await boughtWithoutMoney({
      priceFen: 1000,
      points: 600,
      couponOffFen: 400,
    })
    expect(payMethod).toBe('points')
    expect((await balance(m.token)).balance).toBe(1400)
    const check = (
      await call<{ refundable: boolean; code: number; amount_fen: number; points_used: number }>(
        'GET',
        `/api/refunds/check?order_no=${orderNo}`,
        m.token,
      )
    ).body.data
    expect(check).toMatchObject({ refundable: true, code: 200, amount_fen: 0, points_used: 600 })

    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '积分兑换错了' }))
      .body
    expect(asked).toMatchObject({ code: 200, data: { state: 'requested', amount_fen: 0 } })
    // Refunding nothing but points: no part of 0 fen to choose.
    expect(
      (await call('POST', `/api/admin/refunds/${asked.data.refund_no}/approve`, admin.token, { amount_fen: 1 })).body
        .code,
    ).toBe(400)
    const approved = (
      await call<Refund>('POST', `/api/admin/refunds/${asked.data.refund_no}/approve`, admin.token, { note: '同意' })
    ).body
    expect(approved).toMatchObject({ code: 200, data: { state: 'succeeded', amount_fen: 0 } })
    expect(approved.data.completed_at).not.toBeNull()

    const order = (await call<OrderDetail>('GET', `/api/orders/${orderNo}`, m.token)).body.data
    expect(order).toMatchObject({ state: 'refunded', refunded_fen: 0 })
    expect(order.events.map((e) => [e.reason, e.to])).toEqual([
      ['created', 'pending'],
      ['paid', 'paid'],
      ['refund_requested', 'paid'],
      ['refund_approved', 'refunding'],
      ['refund_succeeded', 'refunded'],
    ])
    const points = await balance(m.token)
    expect(points.balance).toBe(2000)
    expect(points.list[0]).toMatchObject({ reason: 'order_spent_returned', delta: 600, order_no: orderNo })
    expect((await db.select().from(memberCoupons).where(eq(memberCoupons.id, couponId!)))[0]).toMatchObject({
      state: 'available',
      orderId: null,
    })
    expect(await activeGrants(m.id, course)).toEqual([])
    // No provider was involved at any point.
    expect(sims().wechat.trades.has(orderNo)).toBe(false)
    expect(sims().wechat.requests.filter((r) => r.path.startsWith('/v3/refund'))).toEqual([])
    const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, asked.data.refund_no))
    expect(row).toMatchObject({ provider: null, paymentFen: 0, amountFen: 0, decidedBy: admin.id, state: 'succeeded' })
    const after = (
      await call<{ refundable: boolean; code: number }>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)
    ).body.data
    expect(after).toMatchObject({ refundable: false, code: 490 })
    expect((await call(`POST`, `/api/admin/refunds/${asked.data.refund_no}/retry`, admin.token)).body.code).toBe(489)
    // The course can be bought again.
    expect(
      (
        await call<Checkout>('POST', '/api/pay/course', m.token, {
          course_id: course,
          pay_method: 'wechat_h5',
          coupon_id: couponId,
          points: 600,
        })
      ).body.data.state,
    ).toBe('paid')
    await expectLedgerConsistent(db)
  })

  it('a coupon alone (pay_method free): the coupon comes back and the grant goes', async () => {
    const db = t().database.db
    const { admin, m, course, couponId, orderNo, payMethod } = await boughtWithoutMoney({
      priceFen: 800,
      points: 0,
      couponOffFen: 800,
    })
    expect(payMethod).toBe('free')
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '用错了券' })).body
      .data
    expect(
      (await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})).body.data.state,
    ).toBe('succeeded')
    expect((await db.select().from(memberCoupons).where(eq(memberCoupons.id, couponId!)))[0]!.state).toBe('available')
    expect(await activeGrants(m.id, course)).toEqual([])
    expect((await balance(m.token)).balance).toBe(2000)
    await expectLedgerConsistent(db)
  })

  it('a course priced in points (/course/creditPay): its points price comes back', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 2000, note: '活动赠送' }))
        .body.code,
    ).toBe(200)
    const course = await makeCourse(db, { priceFen: 1900, pointsPrice: 1500 })
    const bought = (
      await call<Checkout>('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points' })
    ).body
    expect(bought).toMatchObject({
      code: 200,
      data: { state: 'paid', pay_method: 'points', amount_fen: 0, points_used: 1500 },
    })
    const asked = (
      await call<Refund>('POST', '/api/refunds', m.token, { order_no: bought.data.order_no, reason: '兑换错了课程' })
    ).body.data
    expect(
      (await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})).body.data.state,
    ).toBe('succeeded')
    expect((await balance(m.token)).balance).toBe(2000)
    expect(await activeGrants(m.id, course)).toEqual([])
    await expectLedgerConsistent(db)
  })

  it('points alone; the same rules: the window (491) and the watched share (492)', async () => {
    const db = t().database.db
    const late = await boughtWithoutMoney({ priceFen: 500, points: 500 })
    expect(late.payMethod).toBe('points')
    clock.advance(7 * 86_400_000 + 60_000)
    try {
      expect(
        (await call('POST', '/api/refunds', late.m.token, { order_no: late.orderNo, reason: '过期了吗' })).body,
      ).toMatchObject({ code: 491, msg: '已超过 7 天退款期限' })
    } finally {
      clock.reset()
    }
    const watched = await boughtWithoutMoney({ priceFen: 500, points: 500 })
    await db.insert(studyProgress).values({
      memberId: watched.m.id,
      videoId: watched.video,
      courseId: watched.course,
      position: 300,
      duration: 600,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    expect(
      (await call('POST', '/api/refunds', watched.m.token, { order_no: watched.orderNo, reason: '看了一半' })).body,
    ).toMatchObject({ code: 492 })
    expect((await balance(watched.m.token)).balance).toBe(1500)
    await expectLedgerConsistent(db)
  })

  it("refuses another member's order (404) and non-admin approval (403)", async () => {
    const db = t().database.db
    const { m, orderNo } = await boughtWithoutMoney({ priceFen: 500, points: 500 })
    const stranger = await makeMember(db)
    const staff = await makeMember(db, 'staff')
    expect(
      (await call('POST', '/api/refunds', stranger.token, { order_no: orderNo, reason: '不是我的单' })).body.code,
    ).toBe(404)
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '不想要了' })).body
      .data
    expect((await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, m.token, {})).res.statusCode).toBe(403)
    expect((await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, staff.token, {})).res.statusCode).toBe(
      403,
    )
    expect((await balance(m.token)).balance).toBe(1500)
  })

  it('two approvals at once: one refund, the points come back once', async () => {
    const db = t().database.db
    const { admin, m, orderNo } = await boughtWithoutMoney({ priceFen: 700, points: 700 })
    const admin2 = await makeMember(db, 'admin')
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '同时批准' })).body
      .data
    const answers = await Promise.all(
      [admin, admin2, admin, admin2].map((a) =>
        call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, a.token, {}),
      ),
    )
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 494, 494, 494])
    const points = await balance(m.token)
    expect(points.balance).toBe(2000)
    expect(points.list.filter((e) => e.reason === 'order_spent_returned')).toHaveLength(1)
    expect((await call<OrderDetail>('GET', `/api/orders/${orderNo}`, m.token)).body.data.state).toBe('refunded')
    await expectLedgerConsistent(db)
  })
})
