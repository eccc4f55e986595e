import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { favourites } from '#server/db/schema/favourites.ts'
import { entitlements } from '#server/db/schema/access.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
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
  title: string
  amount_fen: number
  original_fen: number
  points_used: number
  reused: boolean
}
interface Preview {
  original_fen: number
  amount_fen: number
  points_max: number
  items: { course_id: number; price_fen: number }[]
}

describe('favourites checkout (POST /api/fav/pay)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    token: string | null,
    payload?: Record<string, unknown>,
  ) => {
    const res = await t().app.inject({ method, url, headers: token ? headersOf(token) : {}, payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  /** A member with three favourite paid courses (99, 199, 49 yuan) and a favourite free one. */
  async function memberWithFavourites() {
    const db = t().database.db
    const m = await makeMember(db)
    const paid = [
      await makeCourse(db, { title: '课程一', priceFen: 9900 }),
      await makeCourse(db, { title: '课程二', priceFen: 19900 }),
      await makeCourse(db, { title: '课程三', priceFen: 4900 }),
    ]
    const free = await makeCourse(db, { title: '免费课', priceFen: 0, isFree: true })
    for (const courseId of [...paid, free])
      await db.insert(favourites).values({ memberId: m.id, courseId, createdAt: clock.now() })
    return { m, paid, free }
  }

  async function active(memberId: number) {
    const rows = await t()
      .database.db.select({ courseId: entitlements.courseId })
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), isNull(entitlements.revokedAt)))
    return rows.map((r) => r.courseId).sort((a, b) => a - b)
  }

  it('buys every buyable favourite by default, in one order, granted on payment', async () => {
    const db = t().database.db
    const { m, paid } = await memberWithFavourites()
    const calc = (await call<{ count: number; total_price_fen: number }>('GET', '/api/fav/calc', m.token)).body.data
    expect(calc).toMatchObject({ count: 3, total_price_fen: 34700 })
    const preview = (await call<Preview>('GET', '/api/fav/pay/preview', m.token)).body.data
    expect(preview).toMatchObject({ original_fen: 34700, amount_fen: 34700 })
    expect(preview.items.map((i) => i.course_id).sort((a, b) => a - b)).toEqual(paid)

    const order = (await call<Checkout>('POST', '/api/fav/pay', m.token, { pay_method: 'wechat_h5' })).body.data
    expect(order).toMatchObject({ kind: 'favourites', state: 'pending', amount_fen: 34700 })
    expect(order.title).toMatch(/等 3 门课程$/)
    expect(
      (await call<{ buy_again_path: string }>('GET', `/api/orders/${order.order_no}`, m.token)).body.data
        .buy_again_path,
    ).toBe('/myCollection')
    sims().wechat.pay(order.order_no)
    await settleSimulators(t().app)
    expect(await active(m.id)).toEqual(paid)
    // The course orders list (/order) shows it; the bundle-only filter does not.
    expect(
      (await call<{ list: { order_no: string }[] }>('GET', '/api/orders?kind=course', m.token)).body.data.list.map(
        (o) => o.order_no,
      ),
    ).toEqual([order.order_no])
    expect((await call<{ list: unknown[] }>('GET', '/api/orders?kind=bundle', m.token)).body.data.list).toEqual([])
    expect((await call<{ count: number }>('GET', '/api/fav/calc', m.token)).body.data.count).toBe(0)
    expect((await call('POST', '/api/fav/pay', m.token, { pay_method: 'wechat_h5' })).body).toMatchObject({
      code: 400,
      msg: '请选择要购买的课程',
    })
    await expectLedgerConsistent(db)
  })

  it('buys exactly the chosen courses, with points towards the price', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const { m, paid } = await memberWithFavourites()
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 1000, note: '测试' })).body
        .code,
    ).toBe(200)
    const ids = `${paid[0]},${paid[2]}`
    const preview = (await call<Preview>('GET', `/api/fav/pay/preview?course_ids=${ids}&points=1000`, m.token)).body
      .data
    expect(preview).toMatchObject({ original_fen: 14800, amount_fen: 13800, points_max: 1000 })
    const order = (
      await call<Checkout>('POST', '/api/fav/pay', m.token, {
        course_ids: [paid[2], paid[0]],
        pay_method: 'wechat_native',
        points: 1000,
      })
    ).body.data
    expect(order).toMatchObject({ amount_fen: 13800, original_fen: 14800, points_used: 1000 })
    // The same choice in another order is the same order.
    expect(
      (
        await call<Checkout>('POST', '/api/fav/pay', m.token, {
          course_ids: [paid[0], paid[2]],
          pay_method: 'wechat_native',
          points: 1000,
        })
      ).body.data,
    ).toMatchObject({ order_no: order.order_no, reused: true })
    sims().wechat.pay(order.order_no)
    await settleSimulators(t().app)
    expect(await active(m.id)).toEqual([paid[0], paid[2]])
    await expectLedgerConsistent(db)
  })

  it('refuses a list that changed: a course owned meanwhile, a free one, one not favourited', async () => {
    const db = t().database.db
    const { m, paid, free } = await memberWithFavourites()
    await insertEntitlement(db, {
      memberId: m.id,
      courseId: paid[1]!,
      source: 'admin',
      grantedAt: clock.now(),
      expiresAt: null,
    })
    const other = await makeCourse(db, { title: '别人的课', priceFen: 100 })
    const owned = await call('POST', '/api/fav/pay', m.token, {
      course_ids: [paid[0], paid[1]],
      pay_method: 'wechat_h5',
    })
    expect(owned.body).toMatchObject({ code: 482, msg: '这些课程已购买、已免费或不在收藏中：课程二，请刷新后重试' })
    expect(
      (await call('POST', '/api/fav/pay', m.token, { course_ids: [free], pay_method: 'wechat_h5' })).body.code,
    ).toBe(482)
    expect(
      (await call('POST', '/api/fav/pay', m.token, { course_ids: [other], pay_method: 'wechat_h5' })).body.code,
    ).toBe(482)
    expect((await call('POST', '/api/fav/pay', m.token, { course_ids: [], pay_method: 'wechat_h5' })).body.code).toBe(
      400,
    )
    expect(
      (
        await call('POST', '/api/fav/pay', m.token, {
          course_ids: Array.from({ length: 51 }, (_, i) => i + 1),
          pay_method: 'wechat_h5',
        })
      ).body.code,
    ).toBe(400)
    expect(
      (await call('POST', '/api/fav/pay', m.token, { course_ids: ['1'], pay_method: 'wechat_h5' })).body.code,
    ).toBe(400)
    expect(
      (await call('POST', '/api/fav/pay', m.token, { course_ids: [paid[0]], pay_method: 'cash' })).body,
    ).toMatchObject({ code: 400, msg: '支付方式格式不正确' })
    expect((await call('GET', '/api/fav/pay/preview?course_ids=1,x', m.token)).body).toMatchObject({
      code: 400,
      msg: '课程格式不正确',
    })
    expect((await call('POST', '/api/fav/pay', null, { pay_method: 'wechat_h5' })).body.code).toBe(301)
    await expectLedgerConsistent(db)
  })

  it('another member cannot buy my list into their account by sending my course ids', async () => {
    const db = t().database.db
    const { paid } = await memberWithFavourites()
    const stranger = await makeMember(db)
    expect(
      (await call('POST', '/api/fav/pay', stranger.token, { course_ids: paid, pay_method: 'wechat_h5' })).body.code,
    ).toBe(482)
  })
})
