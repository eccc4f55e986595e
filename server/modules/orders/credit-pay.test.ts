import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { expectLedgerConsistent, headersOf, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

interface Checkout {
  order_no: string
  state: string
  amount_fen: number
  original_fen: number
  points_used: number
  pay_method: string
}

describe('courses priced in points (/course/creditPay/{id}: POST /api/pay/course with pay_method points)', () => {
  const { t } = useCommerceApp()

  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    token: string | null,
    payload?: Record<string, unknown>,
  ) => {
    const res = await t().app.inject({ method, url, headers: token ? headersOf(token) : {}, payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  async function memberWithPoints(points: number) {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    if (points > 0)
      expect(
        (
          await call('POST', '/api/admin/points/adjust', admin.token, {
            member_id: m.id,
            delta: points,
            note: '测试发放',
          })
        ).body.code,
      ).toBe(200)
    return m
  }

  async function owns(memberId: number, courseId: number) {
    const rows = await t()
      .database.db.select()
      .from(entitlements)
      .where(
        and(eq(entitlements.memberId, memberId), eq(entitlements.courseId, courseId), isNull(entitlements.revokedAt)),
      )
    return rows.length > 0
  }

  it('spends the points price at once: paid, granted, balance down, no provider', async () => {
    const db = t().database.db
    const course = await makeCourse(db, { priceFen: 1900, pointsPrice: 1500 })
    const m = await memberWithPoints(2000)
    expect(
      (await call<{ points_price: number | null }>('GET', `/api/course?id=${course}`, null)).body.data.points_price,
    ).toBe(1500)
    const order = (
      await call<Checkout>('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points' })
    ).body
    expect(order).toMatchObject({
      code: 200,
      data: { state: 'paid', pay_method: 'points', amount_fen: 0, original_fen: 0, points_used: 1500 },
    })
    expect(await owns(m.id, course)).toBe(true)
    expect(
      (await call<{ buy_again_path: string }>('GET', `/api/orders/${order.data.order_no}`, m.token)).body.data
        .buy_again_path,
    ).toBe(`/course/creditPay/${course}`)
    const points = (
      await call<{ balance: number; list: { delta: number; reason: string }[] }>('GET', '/api/points', m.token)
    ).body.data
    expect(points.balance).toBe(500)
    expect(points.list[0]).toMatchObject({ delta: -1500, reason: 'order_spent' })
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points' })).body.code,
    ).toBe(480)
    // Listed with the exchanges (/order4) as well as with the course orders.
    expect(
      (await call<{ list: { order_no: string }[] }>('GET', '/api/orders?kind=exchange', m.token)).body.data.list.map(
        (o) => o.order_no,
      ),
    ).toEqual([order.data.order_no])
    expect(
      (await call<{ list: { order_no: string }[] }>('GET', '/api/orders?kind=course', m.token)).body.data.list.map(
        (o) => o.order_no,
      ),
    ).toEqual([order.data.order_no])
    await expectLedgerConsistent(db)
  })

  it('refuses too few points with the shortfall, and courses without a points price', async () => {
    const db = t().database.db
    const course = await makeCourse(db, { priceFen: 1900, pointsPrice: 1500 })
    const moneyOnly = await makeCourse(db, { priceFen: 1900 })
    const m = await memberWithPoints(1200)
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points' })).body,
    ).toMatchObject({ code: 499, msg: '积分不足：兑换需要 1500 积分，当前余额 1200 积分' })
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: moneyOnly, pay_method: 'points' })).body,
    ).toMatchObject({ code: 482, msg: '这门课程不支持积分兑换' })
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points', coupon_id: 5 })).body,
    ).toMatchObject({ code: 495 })
    expect(await owns(m.id, course)).toBe(false)
    await expectLedgerConsistent(db)
  })

  it('a course sold only for points cannot be bought with money', async () => {
    const db = t().database.db
    const course = await makeCourse(db, { priceFen: 0, pointsPrice: 800 })
    const m = await memberWithPoints(0)
    expect(
      (await call('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body,
    ).toMatchObject({ code: 482, msg: '这门课程只能用积分兑换' })
  })

  it('ten exchanges at once with points for one: one course, balance never negative', async () => {
    const db = t().database.db
    const courses = await Promise.all(
      Array.from({ length: 10 }, () => makeCourse(db, { priceFen: 1900, pointsPrice: 1000 })),
    )
    const m = await memberWithPoints(1000)
    const answers = await Promise.all(
      courses.map((course) =>
        call<Checkout>('POST', '/api/pay/course', m.token, { course_id: course, pay_method: 'points' }),
      ),
    )
    expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.body.code === 499)).toHaveLength(9)
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).body.data.balance).toBe(0)
    await expectLedgerConsistent(db)
  })
})
