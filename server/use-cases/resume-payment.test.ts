import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import {
  expectLedgerConsistent,
  headersOf,
  settleSimulators,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

interface Checkout {
  order_no: string
  kind: string
  state: string
  amount_fen: number
  reused: boolean
  h5_url: string | null
  code_url: string | null
}

/** 继续支付 (POST /api/orders/pay): any pending order of the member is paid again, the same order. */
describe('resumePayment (server/use-cases/resume-payment.ts)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })
    return { status: res.statusCode, body: res.json<ApiBody<T>>() }
  }

  async function favouritesOrder(payMethod: string) {
    const db = t().database.db
    const m = await makeMember(db)
    const courses = [
      await makeCourse(db, { title: '收藏课一', priceFen: 9900 }),
      await makeCourse(db, { title: '收藏课二', priceFen: 4900 }),
    ]
    for (const courseId of courses)
      await db.insert(favourites).values({ memberId: m.id, courseId, createdAt: clock.now() })
    const order = (await call<Checkout>('/api/fav/pay', m.token, { pay_method: payMethod })).body.data
    expect(order).toMatchObject({ kind: 'favourites', state: 'pending', amount_fen: 14800 })
    return { m, courses, order }
  }

  it('hands a pending favourites order to its provider again; paying it grants its courses', async () => {
    const db = t().database.db
    const { m, courses, order } = await favouritesOrder('wechat_h5')
    const again = await call<Checkout>('/api/orders/pay', m.token, { order_no: order.order_no })
    expect(again.body).toMatchObject({
      code: 200,
      data: { order_no: order.order_no, state: 'pending', amount_fen: 14800, reused: true },
    })
    expect(again.body.data.h5_url).toMatch(/^http/)
    sims().wechat.pay(order.order_no)
    await settleSimulators(t().app)
    const granted = await db
      .select({ courseId: entitlements.courseId })
      .from(entitlements)
      .where(and(eq(entitlements.memberId, m.id), isNull(entitlements.revokedAt)))
    expect(granted.map((g) => g.courseId).sort((a, b) => a - b)).toEqual(courses)
    // Paid now: nothing left to continue.
    expect((await call('/api/orders/pay', m.token, { order_no: order.order_no })).body).toMatchObject({ code: 486 })
    await expectLedgerConsistent(db)
  })

  it('keeps the order’s own method (Native: a QR code again)', async () => {
    const { m, order } = await favouritesOrder('wechat_native')
    const again = await call<Checkout>('/api/orders/pay', m.token, { order_no: order.order_no })
    expect(again.body.data.code_url).toMatch(/^http.*\/__sim\/wechatpay\//)
  })

  it('answers 订单不存在 for another member’s order or an unknown one, and refuses an order about to close', async () => {
    const { order } = await favouritesOrder('wechat_h5')
    const other = await makeMember(t().database.db)
    expect((await call('/api/orders/pay', other.token, { order_no: order.order_no })).body).toMatchObject({
      code: 404,
      msg: '订单不存在',
    })
    expect((await call('/api/orders/pay', other.token, { order_no: 'ZX000' })).body.code).toBe(404)
    const { m, order: late } = await favouritesOrder('wechat_h5')
    clock.advance(29.5 * 60_000)
    expect((await call('/api/orders/pay', m.token, { order_no: late.order_no })).body).toMatchObject({
      code: 486,
      msg: '订单即将超时关闭，请重新下单',
    })
  })
})
