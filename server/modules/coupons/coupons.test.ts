import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { categories } from '#server/db/schema/catalogue.ts'
import { memberCoupons } from '#server/db/schema/coupons.ts'
import {
  expectLedgerConsistent,
  headersOf,
  settleSimulators,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { pointsEarned, pointsFor } from '#server/modules/points/points-rules.ts'
import { couponCovers, couponDiscount } from './pricing.ts'

interface MemberCoupon {
  coupon_id: number
  template_id: number
  state: string
  expires_at: string
}

interface Preview {
  coupons: { coupon_id: number; name: string; discount_fen: number }[]
  coupon_id: number | null
  discount_fen: number
  points_balance: number
  points_max: number
  points: number
  points_fen: number
  amount_fen: number
}

interface Checkout {
  order_no: string
  state: string
  amount_fen: number
  original_fen: number
  discount_fen: number
  points_used: number
  pay_method: string
  h5_url: string | null
}

describe('coupon pricing', () => {
  const amount = { kind: 'amount' as const, amountOffFen: 1000, percentOff: null, maxOffFen: null, minSpendFen: 5000 }
  const percent = { kind: 'percent' as const, amountOffFen: null, percentOff: 20, maxOffFen: 3000, minSpendFen: 0 }

  it.each([
    { name: 'amount off above the minimum spend', t: amount, price: 5000, off: 1000 },
    { name: 'amount off below the minimum spend', t: amount, price: 4999, off: 0 },
    {
      name: 'amount off never more than the price',
      t: { ...amount, amountOffFen: 9000, minSpendFen: 0 },
      price: 500,
      off: 500,
    },
    { name: 'percent off, rounded down', t: percent, price: 999, off: 199 },
    { name: 'percent off, capped', t: percent, price: 19900, off: 3000 },
    { name: 'percent off without a cap', t: { ...percent, maxOffFen: null }, price: 19900, off: 3980 },
  ])('$name', ({ t, price, off }) => {
    expect(couponDiscount(t, price)).toBe(off)
  })

  it('covers all, a category or its parent, or listed courses', () => {
    const course = { id: 7, categoryIds: [3, 1] }
    expect(couponCovers({ scope: 'all', scopeIds: [] }, course)).toBe(true)
    expect(couponCovers({ scope: 'category', scopeIds: [1] }, course)).toBe(true)
    expect(couponCovers({ scope: 'category', scopeIds: [2] }, course)).toBe(false)
    expect(couponCovers({ scope: 'courses', scopeIds: [7, 8] }, course)).toBe(true)
    expect(couponCovers({ scope: 'courses', scopeIds: [8] }, course)).toBe(false)
  })

  it('limits points to the balance and the configured share, and earns per yuan', () => {
    const rules = { fenPerPoint: 1, maxPercent: 50, earnPerYuan: 1 }
    expect(pointsFor(10000, 100_000, rules)).toEqual({ points: 5000, fen: 5000 })
    expect(pointsFor(10000, 300, rules)).toEqual({ points: 300, fen: 300 })
    expect(pointsFor(999, 100_000, { ...rules, fenPerPoint: 10 })).toEqual({ points: 49, fen: 490 })
    expect(pointsEarned(16999, rules)).toBe(169)
    expect(pointsEarned(99, rules)).toBe(0)
  })
})

describe('coupons and points at checkout', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token: string | null,
    payload?: Record<string, unknown>,
  ) => {
    const res = await t().app.inject({ method, url, headers: token ? headersOf(token) : {}, payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  async function template(adminToken: string, body: Record<string, unknown>) {
    const res = await call<{ id: number }>('POST', '/api/admin/coupon-templates', adminToken, {
      valid_days: 30,
      ...body,
    })
    expect(res.body.code).toBe(200)
    return res.body.data.id
  }

  async function claim(token: string, templateId: number) {
    const res = await call<MemberCoupon>('POST', '/api/coupon', token, { template_id: templateId })
    expect(res.body.code).toBe(200)
    return res.body.data.coupon_id
  }

  async function givePoints(adminToken: string, memberId: number, delta: number) {
    expect(
      (await call('POST', '/api/admin/points/adjust', adminToken, { member_id: memberId, delta, note: '测试发放' }))
        .body.code,
    ).toBe(200)
  }

  /** A learner with 3,000 points and a claimed 立减 20 coupon, and a ¥100 course. */
  async function learnerWithCouponAndPoints() {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    await givePoints(admin.token, m.id, 3000)
    const course = await makeCourse(db, { priceFen: 10000 })
    const coupon = await claim(
      m.token,
      await template(admin.token, { name: '立减 20', kind: 'amount', amount_off_fen: 2000, per_member_limit: 5 }),
    )
    return { db, admin, m, course, coupon }
  }

  async function checkOut(token: string, course: number, payMethod: string, points: number) {
    return (
      await call<Checkout>('POST', '/api/pay/course', token, { course_id: course, pay_method: payMethod, points })
    ).body.data
  }

  it('admins define templates; members claim within the limits (497, 496, 498)', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const a = await makeMember(db)
    const b = await makeMember(db)
    expect(
      (await call('POST', '/api/admin/coupon-templates', admin.token, { name: '九折', kind: 'percent', valid_days: 7 }))
        .body.code,
    ).toBe(400)
    expect(
      (
        await call('POST', '/api/admin/coupon-templates', admin.token, {
          name: '课程券',
          kind: 'amount',
          amount_off_fen: 100,
          scope: 'courses',
          valid_days: 7,
        })
      ).body.code,
    ).toBe(400)
    expect(
      (
        await call('POST', '/api/admin/coupon-templates', admin.token, {
          name: '无期限',
          kind: 'amount',
          amount_off_fen: 100,
        })
      ).body.code,
    ).toBe(400)
    expect(
      (
        await call('POST', '/api/admin/coupon-templates', a.token, {
          name: '越权',
          kind: 'amount',
          amount_off_fen: 100,
          valid_days: 7,
        })
      ).res.statusCode,
    ).toBe(403)

    const one = await template(admin.token, {
      name: '新人立减 10 元',
      kind: 'amount',
      amount_off_fen: 1000,
      total_limit: 1,
    })
    const claimed = (await call<MemberCoupon>('POST', '/api/coupon', a.token, { template_id: one })).body
    expect(claimed).toMatchObject({ code: 200, data: { template_id: one, state: 'available' } })
    expect(new Date(claimed.data.expires_at).getTime() - clock.now().getTime()).toBeGreaterThan(29 * 86_400_000)
    expect((await call('POST', '/api/coupon', a.token, { template_id: one })).body.code).toBe(497)
    expect((await call('POST', '/api/coupon', b.token, { template_id: one })).body.code).toBe(496)
    const later = await template(admin.token, {
      name: '明天开抢',
      kind: 'amount',
      amount_off_fen: 500,
      claim_from: new Date(clock.now().getTime() + 86_400_000).toISOString(),
    })
    expect((await call('POST', '/api/coupon', b.token, { template_id: later })).body.code).toBe(498)
    expect((await call('POST', '/api/coupon', b.token, { template_id: 999_999 })).body.code).toBe(404)
    const visible = (
      await call<{ list: { id: number; claimed_by_me: number }[] }>('GET', '/api/coupons/claimable', a.token)
    ).body.data.list
    expect(visible.some((v) => v.id === one)).toBe(false)
    expect(visible.some((v) => v.id === later)).toBe(false)
    expect(
      (await call<{ list: MemberCoupon[] }>('GET', '/api/coupons?state=available', a.token)).body.data.list.map(
        (c) => c.template_id,
      ),
    ).toEqual([one])
    expect((await call('PATCH', `/api/admin/coupon-templates/${one}`, admin.token, { total_limit: 0 })).body.code).toBe(
      400,
    )
    expect(
      (await call<{ active: boolean }>('PATCH', `/api/admin/coupon-templates/${one}`, admin.token, { active: false }))
        .body.data.active,
    ).toBe(false)
  })

  it('picks the best coupon by default, reserves it, uses it on payment and earns points', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 19900 })
    const tenOff = await claim(
      m.token,
      await template(admin.token, {
        name: '满 50 减 10',
        kind: 'amount',
        amount_off_fen: 1000,
        min_spend_fen: 5000,
        per_member_limit: 5,
      }),
    )
    const twentyPercent = await claim(
      m.token,
      await template(admin.token, {
        name: '八折最高减 30',
        kind: 'percent',
        percent_off: 20,
        max_off_fen: 3000,
        per_member_limit: 5,
      }),
    )
    const otherCourse = await claim(
      m.token,
      await template(admin.token, {
        name: '指定课程',
        kind: 'amount',
        amount_off_fen: 5000,
        scope: 'courses',
        scope_ids: [999_999],
        per_member_limit: 5,
      }),
    )
    const preview = (await call<Preview>('GET', `/api/pay/course/preview?course_id=${course}`, m.token)).body.data
    expect(preview.coupons.map((c) => [c.coupon_id, c.discount_fen])).toEqual([
      [twentyPercent, 3000],
      [tenOff, 1000],
    ])
    expect(preview).toMatchObject({
      coupon_id: twentyPercent,
      discount_fen: 3000,
      amount_fen: 16900,
      points_balance: 0,
      points_max: 0,
    })
    expect(
      (await call<Preview>('GET', `/api/pay/course/preview?course_id=${course}&coupon_id=0`, m.token)).body.data,
    ).toMatchObject({ coupon_id: null, amount_fen: 19900 })
    expect(
      (
        await call('POST', '/api/pay/course', m.token, {
          course_id: course,
          pay_method: 'wechat_h5',
          coupon_id: otherCourse,
        })
      ).body.code,
    ).toBe(495)

    const d = (await call<Checkout>('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }))
      .body.data
    expect(d).toMatchObject({
      amount_fen: 16900,
      original_fen: 19900,
      discount_fen: 3000,
      points_used: 0,
      state: 'pending',
    })
    const [held] = await db.select().from(memberCoupons).where(eq(memberCoupons.id, twentyPercent))
    expect(held).toMatchObject({ state: 'reserved' })
    // The reserved coupon is not offered to another order meanwhile.
    const other = await makeCourse(db, { priceFen: 19900 })
    expect(
      (await call<Preview>('GET', `/api/pay/course/preview?course_id=${other}`, m.token)).body.data.coupon_id,
    ).toBe(tenOff)
    // A second tap reuses the order with its coupon.
    expect(
      (
        await call<Checkout & { reused: boolean }>('POST', '/api/pay/course', m.token, {
          course_id: course,
          pay_method: 'wechat_h5',
        })
      ).body.data,
    ).toMatchObject({ order_no: d.order_no, reused: true })

    expect(sims().wechat.trades.get(d.order_no)!.total).toBe(16900)
    sims().wechat.pay(d.order_no)
    await settleSimulators(t().app)
    const [used] = await db.select().from(memberCoupons).where(eq(memberCoupons.id, twentyPercent))
    expect(used).toMatchObject({ state: 'used' })
    const points = (
      await call<{ balance: number; list: { delta: number; reason: string; order_no: string | null }[] }>(
        'GET',
        '/api/points',
        m.token,
      )
    ).body.data
    expect(points.balance).toBe(169)
    expect(points.list).toEqual([expect.objectContaining({ delta: 169, reason: 'order_earned', order_no: d.order_no })])
    await expectLedgerConsistent(db)
  })

  it('gives the coupon and the points back when the order closes, and takes back earned points on a full refund', async () => {
    const { db, admin, m, course, coupon } = await learnerWithCouponAndPoints()
    const preview = (await call<Preview>('GET', `/api/pay/course/preview?course_id=${course}&points=99999`, m.token))
      .body.data
    expect(preview).toMatchObject({
      coupon_id: coupon,
      points_balance: 3000,
      points_max: 3000,
      points: 3000,
      amount_fen: 5000,
    })
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5', points: 4001 }))
        .body.code,
    ).toBe(400)

    const first = await checkOut(m.token, course, 'wechat_h5', 3000)
    expect(first).toMatchObject({ amount_fen: 5000, discount_fen: 2000, points_used: 3000 })
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(0)
    clock.advance(31 * 60_000)
    try {
      await t().app.services.payments.closeExpired()
    } finally {
      clock.reset()
    }
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(3000)
    expect((await db.select().from(memberCoupons).where(eq(memberCoupons.id, coupon)))[0]).toMatchObject({
      state: 'available',
      orderId: null,
    })

    // Buy again with both, pay, refund in full: coupon back, spent points back, earned points taken.
    const second = await checkOut(m.token, course, 'alipay_wap', 3000)
    const gateway = new URL((second as Checkout & { redirect_url: string }).redirect_url)
    await t().app.inject({ method: 'GET', url: `${gateway.pathname}${gateway.search}` })
    sims().alipay.pay(second.order_no)
    await settleSimulators(t().app)
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(50)
    const asked = (
      await call<{ refund_no: string }>('POST', '/api/refunds', m.token, {
        order_no: second.order_no,
        reason: '全额退款测试',
      })
    ).body.data
    expect(
      (await call<{ state: string }>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})).body
        .data.state,
    ).toBe('succeeded')
    const after = (
      await call<{ balance: number; list: { reason: string; delta: number }[] }>('GET', '/api/points', m.token)
    ).body.data
    expect(after.balance).toBe(3000)
    expect(
      after.list
        .slice(0, 2)
        .map((e) => [e.reason, e.delta])
        .sort(),
    ).toEqual([
      ['order_earned_reversed', -50],
      ['order_spent_returned', 3000],
    ])
    expect((await db.select().from(memberCoupons).where(eq(memberCoupons.id, coupon)))[0]).toMatchObject({
      state: 'available',
    })
    await expectLedgerConsistent(db)
  })

  it("counts a pending order's coupon and points on its own purchase page, where checking out again frees them", async () => {
    // A learner who cancels the payment and comes back to the purchase page: the order they left open holds their
    // coupon and points, and a new checkout of the same course gives them back first, so the page offers them.
    const { db, m, course, coupon } = await learnerWithCouponAndPoints()
    const left = await checkOut(m.token, course, 'wechat_h5', 3000)
    expect(left).toMatchObject({ state: 'pending', points_used: 3000, discount_fen: 2000 })
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(0)

    const again = (await call<Preview>('GET', `/api/pay/course/preview?course_id=${course}&points=99999`, m.token)).body
      .data
    expect(again).toMatchObject({
      coupon_id: coupon,
      discount_fen: 2000,
      points_balance: 3000,
      points_max: 3000,
      points: 3000,
      amount_fen: 5000,
    })
    // Another course's page does not count them: that checkout would not free them.
    const other = await makeCourse(db, { priceFen: 10000 })
    expect(
      (await call<Preview>('GET', `/api/pay/course/preview?course_id=${other}&points=99999`, m.token)).body.data,
    ).toMatchObject({ coupon_id: null, points_balance: 0, points_max: 0, points: 0, amount_fen: 10000 })

    // What the page offered is what the checkout takes: another method closes the left order and spends them anew.
    const paid = await checkOut(m.token, course, 'alipay_wap', 3000)
    expect(paid).toMatchObject({ state: 'pending', amount_fen: 5000, discount_fen: 2000, points_used: 3000 })
    expect(paid.order_no).not.toBe(left.order_no)
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(0)
    await expectLedgerConsistent(db)
  })

  it('two taps with a coupon and points at once, or one after the other, give one order', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    await givePoints(admin.token, m.id, 1000)
    const course = await makeCourse(db, { priceFen: 6000 })
    const coupon = await claim(
      m.token,
      await template(admin.token, { name: '立减 5', kind: 'amount', amount_off_fen: 500, per_member_limit: 5 }),
    )
    const choice = { course_id: course, pay_method: 'wechat_h5', coupon_id: coupon, points: 1000 }
    const taps = await Promise.all([0, 1].map(() => call<Checkout>('POST', '/api/pay/course', m.token, choice)))
    expect(taps.map((a) => a.body.code)).toEqual([200, 200])
    expect(taps[0]!.body.data.order_no).toBe(taps[1]!.body.data.order_no)
    const third = (await call<Checkout & { reused: boolean }>('POST', '/api/pay/course', m.token, choice)).body
    expect(third).toMatchObject({
      code: 200,
      data: { order_no: taps[0]!.body.data.order_no, reused: true, amount_fen: 4500 },
    })
    await expectLedgerConsistent(db)
  })

  it('pays at once when coupon and points cover everything (no provider)', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 1000 })
    await claim(
      m.token,
      await template(admin.token, { name: '免单券', kind: 'amount', amount_off_fen: 1000, per_member_limit: 5 }),
    )
    const d = (
      await call<Checkout>('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_jsapi' })
    ).body
    expect(d).toMatchObject({
      code: 200,
      data: { state: 'paid', amount_fen: 0, discount_fen: 1000, pay_method: 'free', h5_url: null },
    })
    expect(sims().wechat.trades.has(d.data.order_no)).toBe(false)
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.code,
    ).toBe(480)
    await expectLedgerConsistent(db)
  })

  it('category coupons match the course category or its parent', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const [parent] = await db.insert(categories).values({ name: '设计' }).returning()
    const [child] = await db.insert(categories).values({ name: '平面', parentId: parent!.id }).returning()
    const course = await makeCourse(db, { categoryId: child!.id, priceFen: 8000 })
    const coupon = await claim(
      m.token,
      await template(admin.token, {
        name: '设计类 8 折',
        kind: 'percent',
        percent_off: 20,
        scope: 'category',
        scope_ids: [parent!.id],
      }),
    )
    expect(
      (await call<Preview>('GET', `/api/pay/course/preview?course_id=${course}`, m.token)).body.data,
    ).toMatchObject({ coupon_id: coupon, discount_fen: 1600 })
  })

  it('admin points adjustments never go below zero and are recorded with who', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    await givePoints(admin.token, m.id, 500)
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: -600, note: '扣多了' }))
        .body.code,
    ).toBe(499)
    expect(
      (
        await call<{ balance: number }>('POST', '/api/admin/points/adjust', admin.token, {
          member_id: m.id,
          delta: -500,
          note: '清零',
        })
      ).body.data.balance,
    ).toBe(0)
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: 999_999, delta: 5, note: '无此人' }))
        .body.code,
    ).toBe(404)
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 0, note: '零' })).body
        .code,
    ).toBe(400)
    const actors = await db.execute<{ actor: string; note: string }>(
      sql`select actor, note from point_entries where member_id = ${m.id} order by id`,
    )
    expect(actors.rows).toEqual([
      { actor: `admin:${admin.id}`, note: '测试发放' },
      { actor: `admin:${admin.id}`, note: '清零' },
    ])
  })
})

describe('coupons and points under concurrency', () => {
  const { t } = useCommerceApp({ POINTS_MAX_PERCENT: '100' })

  const call = async <T>(url: string, token: string, payload: Record<string, unknown>) =>
    (await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })).json<ApiBody<T>>()

  it('20 checkouts with one single-use coupon at once: one gets it', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const templateId = (
      await call<{ id: number }>('/api/admin/coupon-templates', admin.token, {
        name: '唯一',
        kind: 'amount',
        amount_off_fen: 500,
        valid_days: 3,
      })
    ).data.id
    const coupon = (await call<{ coupon_id: number }>('/api/coupon', m.token, { template_id: templateId })).data
      .coupon_id
    const courses = await Promise.all(Array.from({ length: 20 }, () => makeCourse(db, { priceFen: 3000 })))
    const answers = await Promise.all(
      courses.map((c) =>
        call<Checkout>('/api/pay/course', m.token, { course_id: c, pay_method: 'wechat_h5', coupon_id: coupon }),
      ),
    )
    expect(answers.filter((a) => a.code === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.code === 495)).toHaveLength(19)
    const withCoupon = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where coupon_id = ${coupon}`,
    )
    expect(withCoupon.rows[0]!.n).toBe(1)
    await expectLedgerConsistent(db)
  })

  it('50 checkouts spending the whole balance at once: one succeeds, the balance never goes negative', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    await call('/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 2000, note: '活动奖励' })
    const courses = await Promise.all(Array.from({ length: 50 }, () => makeCourse(db, { priceFen: 2000 })))
    const answers = await Promise.all(
      courses.map((c) =>
        call<Checkout>('/api/pay/course', m.token, {
          course_id: c,
          pay_method: 'wechat_h5',
          coupon_id: null,
          points: 2000,
        }),
      ),
    )
    const won = answers.filter((a) => a.code === 200)
    expect(won).toHaveLength(1)
    expect(won[0]!.data).toMatchObject({ state: 'paid', pay_method: 'points', amount_fen: 0, points_used: 2000 })
    expect(answers.filter((a) => a.code === 499)).toHaveLength(49)
    const balance = await db.execute<{ balance: number }>(
      sql`select balance from point_balances where member_id = ${m.id}`,
    )
    expect(balance.rows[0]!.balance).toBe(0)
    const low = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from point_entries where balance_after < 0`,
    )
    expect(low.rows[0]!.n).toBe(0)
    await expectLedgerConsistent(db)
  })
})
