import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { bundles } from '#server/db/schema/bundles.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import {
  expectLedgerConsistent,
  headersOf,
  settleSimulators,
  until,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { cacheBusHeard } from '#tests/support/cache-bus.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

interface Bundle {
  id: number
  title: string
  price_fen: number
  list_price_fen: number
  course_count: number
  on_sale: boolean
  pay_fen: number | null
  courses: { id: number; owned: boolean; title: string }[]
}
interface Checkout {
  order_no: string
  kind: string
  state: string
  title: string
  amount_fen: number
  original_fen: number
  discount_fen: number
  reused: boolean
}
interface Preview {
  original_fen: number
  amount_fen: number
  discount_fen: number
  coupon_id: number | null
  items: { course_id: number; price_fen: number; title: string }[]
}

describe('course bundles (/foryou)', () => {
  const { t } = useCommerceApp()
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

  /** Three paid courses (99, 199, 129 yuan) and a free one in a bundle at 299 yuan. */
  async function bundle(admin: string, extra: Record<string, unknown> = {}) {
    const db = t().database.db
    const ids = [
      await makeCourse(db, { title: '课程甲', priceFen: 9900 }),
      await makeCourse(db, { title: '课程乙', priceFen: 19900 }),
      await makeCourse(db, { title: '课程丙', priceFen: 12900 }),
      await makeCourse(db, { title: '免费课', priceFen: 0, isFree: true }),
    ]
    const res = await call<{ id: number; course_ids: number[]; list_price_fen: number }>(
      'POST',
      '/api/admin/bundles',
      admin,
      {
        title: '设计三件套',
        subtitle: '一次学齐',
        price_fen: 29900,
        course_ids: ids,
        ...extra,
      },
    )
    expect(res.body.code).toBe(200)
    expect(res.body.data).toMatchObject({ course_ids: ids, list_price_fen: 42700 })
    return { id: res.body.data.id, courses: ids }
  }

  async function active(memberId: number) {
    const rows = await t()
      .database.db.select({ courseId: entitlements.courseId })
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), isNull(entitlements.revokedAt)))
    return rows.map((r) => r.courseId).sort((a, b) => a - b)
  }

  describe('operators (/api/admin/bundles)', () => {
    it('only admins manage bundles', async () => {
      const db = t().database.db
      const member = await makeMember(db)
      expect((await call('GET', '/api/admin/bundles', member.token)).body.code).toBe(403)
      expect(
        (await call('POST', '/api/admin/bundles', null, { title: 'x', price_fen: 1, course_ids: [1, 2] })).body.code,
      ).toBe(301)
    })

    it('names bad input: too few, repeated or unknown courses, a price out of range', async () => {
      const admin = await makeMember(t().database.db, 'admin')
      const c = await makeCourse(t().database.db)
      expect(
        (await call('POST', '/api/admin/bundles', admin.token, { title: '套餐', price_fen: 100, course_ids: [c] }))
          .body,
      ).toMatchObject({ code: 400, msg: '套餐至少包含 2 门课程' })
      expect(
        (await call('POST', '/api/admin/bundles', admin.token, { title: '套餐', price_fen: 100, course_ids: [c, c] }))
          .body,
      ).toMatchObject({ code: 400, msg: '课程不能重复' })
      expect(
        (
          await call('POST', '/api/admin/bundles', admin.token, {
            title: '套餐',
            price_fen: 100,
            course_ids: [c, 999_999],
          })
        ).body,
      ).toMatchObject({ code: 400, msg: '课程不存在：999999' })
      expect(
        (await call('POST', '/api/admin/bundles', admin.token, { title: '套餐', price_fen: 0, course_ids: [c, c + 1] }))
          .body.code,
      ).toBe(400)
      expect(
        (
          await call('POST', '/api/admin/bundles', admin.token, {
            title: '套'.repeat(41),
            price_fen: 100,
            course_ids: [c, c + 1],
          })
        ).body,
      ).toMatchObject({ code: 400, msg: '标题格式不正确' })
      expect(
        (
          await call('POST', '/api/admin/bundles', admin.token, {
            title: '套餐',
            price_fen: 100,
            course_ids: Array.from({ length: 31 }, (_, i) => i + 1),
          })
        ).body.code,
      ).toBe(400)
      expect(
        (
          await call('POST', '/api/admin/bundles', admin.token, {
            title: '套餐',
            price_fen: '100',
            course_ids: [c, c + 1],
          })
        ).body,
      ).toMatchObject({ code: 400, msg: '价格格式不正确' })
      expect((await call('PATCH', '/api/admin/bundles/999999', admin.token, { title: '新名字' })).body).toMatchObject({
        code: 404,
        msg: '套餐不存在',
      })
    })

    it('changes, reorders and withdraws a bundle', async () => {
      const admin = await makeMember(t().database.db, 'admin')
      const b = await bundle(admin.token)
      const patched = await call<{ course_ids: number[]; active: boolean; title: string }>(
        'PATCH',
        `/api/admin/bundles/${b.id}`,
        admin.token,
        {
          title: '新套餐',
          course_ids: [b.courses[2], b.courses[0]],
          active: false,
        },
      )
      expect(patched.body.data).toMatchObject({
        title: '新套餐',
        course_ids: [b.courses[2], b.courses[0]],
        active: false,
      })
      expect(
        (await call<{ list: Bundle[] }>('GET', '/api/foryou/bundles', null)).body.data.list.map((x) => x.id),
      ).not.toContain(b.id)
      expect(
        (await call<{ list: { id: number }[] }>('GET', '/api/admin/bundles', admin.token)).body.data.list.map(
          (x) => x.id,
        ),
      ).toContain(b.id)
    })
  })

  describe('GET /api/foryou/bundles?course_id= (the course page offer, kept in memory)', () => {
    const offer = async (courseId: number) =>
      (await call<{ list: Bundle[] }>('GET', `/api/foryou/bundles?course_id=${courseId}`, null)).body.data.list

    it('answers from memory, and shows a bundle or course edited through the service at once', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      await cacheBusHeard(db)
      expect((await offer(b.courses[0]!)).map((x) => x.title)).toEqual(['设计三件套'])

      // A write behind the service's back is not seen: the second read came from memory.
      await db.update(bundles).set({ title: '改了库' }).where(eq(bundles.id, b.id))
      expect((await offer(b.courses[0]!)).map((x) => x.title)).toEqual(['设计三件套'])

      // The operators' edit of the bundle drops it.
      await call('PATCH', `/api/admin/bundles/${b.id}`, admin.token, { title: '新名字' })
      expect((await offer(b.courses[0]!)).map((x) => x.title)).toEqual(['新名字'])

      // A course of it repriced through the catalogue drops it too (its card adds up the courses' prices).
      const repriced = await call('PATCH', `/api/admin/courses/${b.courses[1]}`, admin.token, { price_fen: 20900 })
      expect(repriced.body.code).toBe(200)
      expect((await offer(b.courses[0]!))[0]).toMatchObject({ list_price_fen: 43700 })

      // Withdrawn: gone from the offer at once.
      await call('PATCH', `/api/admin/bundles/${b.id}`, admin.token, { active: false })
      expect(await offer(b.courses[0]!)).toEqual([])
    })
  })

  describe('GET /api/foryou/bundles/:id', () => {
    it('shows a visitor the bundle at its price, and a member what they would pay given what they own', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const anon = (await call<Bundle>('GET', `/api/foryou/bundles/${b.id}`, null)).body.data
      expect(anon).toMatchObject({
        title: '设计三件套',
        price_fen: 29900,
        list_price_fen: 42700,
        course_count: 4,
        on_sale: true,
        pay_fen: 29900,
      })
      expect(anon.courses.map((c) => c.owned)).toEqual([false, false, false, false])

      const m = await makeMember(db)
      await insertEntitlement(db, {
        memberId: m.id,
        courseId: b.courses[1]!,
        source: 'admin',
        grantedAt: new Date(),
        expiresAt: null,
      })
      const mine = (await call<Bundle>('GET', `/api/foryou/bundles/${b.id}`, m.token)).body.data
      expect(mine.courses.map((c) => c.owned)).toEqual([false, true, false, false])
      // 29,900 × (9,900 + 12,900) / 42,700
      expect(mine.pay_fen).toBe(15965)
      expect((await call('GET', '/api/foryou/bundles/999999', null)).body).toMatchObject({
        code: 404,
        msg: '套餐不存在',
      })
      // The course page asks which bundles hold a course.
      expect(
        (
          await call<{ list: { id: number }[] }>('GET', `/api/foryou/bundles?course_id=${b.courses[2]}`, null)
        ).body.data.list.map((x) => x.id),
      ).toEqual([b.id])
      const alone = await makeCourse(db)
      expect(
        (await call<{ list: unknown[] }>('GET', `/api/foryou/bundles?course_id=${alone}`, null)).body.data.list,
      ).toEqual([])
      expect((await call('GET', '/api/foryou/bundles/abc', null)).body.code).toBe(400)
    })
  })

  describe('POST /api/foryou/pay', () => {
    it('buys the whole bundle: one order, every paid course granted after the payment', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const m = await makeMember(db)
      const preview = (await call<Preview>('GET', `/api/foryou/pay/preview?id=${b.id}`, m.token)).body.data
      expect(preview).toMatchObject({ original_fen: 29900, amount_fen: 29900 })
      expect(preview.items.map((i) => i.course_id)).toEqual(b.courses.slice(0, 3))
      expect(preview.items.reduce((s, i) => s + i.price_fen, 0)).toBe(29900)

      const order = (await call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' }))
        .body.data
      expect(order).toMatchObject({ kind: 'bundle', state: 'pending', amount_fen: 29900, title: '套餐 · 设计三件套' })
      // A second tap pays the same order.
      expect(
        (await call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' })).body.data,
      ).toMatchObject({ order_no: order.order_no, reused: true })
      expect(await active(m.id)).toEqual([])
      sims().wechat.pay(order.order_no)
      await settleSimulators(t().app)
      expect(await active(m.id)).toEqual(b.courses.slice(0, 3))
      expect(
        (await call('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' })).body,
      ).toMatchObject({ code: 480, msg: '套餐里的课程你都已拥有，直接去学习吧' })
      const detail = (
        await call<{ state: string; items: { course_id: number }[]; buy_again_path: string }>(
          'GET',
          `/api/orders/${order.order_no}`,
          m.token,
        )
      ).body.data
      expect(detail.state).toBe('paid')
      expect(detail.buy_again_path).toBe(`/foryou/${b.id}`)
      expect(detail.items).toHaveLength(3)
      await expectLedgerConsistent(db)
    })

    it('charges a member who owns some courses only for the rest, and grants only those', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const m = await makeMember(db)
      await insertEntitlement(db, {
        memberId: m.id,
        courseId: b.courses[0]!,
        source: 'admin',
        grantedAt: new Date(),
        expiresAt: null,
      })
      const order = (await call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'alipay_wap' }))
        .body.data
      // 29,900 × (19,900 + 12,900) / 42,700 = 22,967.7
      expect(order.amount_fen).toBe(22968)
      const url = new URL((order as unknown as { redirect_url: string }).redirect_url)
      await t().app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })
      sims().alipay.pay(order.order_no)
      await settleSimulators(t().app)
      expect(await active(m.id)).toEqual(b.courses.slice(0, 3))
      const items = (
        await call<{ items: { course_id: number; price_fen: number }[] }>(
          'GET',
          `/api/orders/${order.order_no}`,
          m.token,
        )
      ).body.data.items
      expect(items.map((i) => i.course_id)).toEqual(b.courses.slice(1, 3))
      expect(items.reduce((s, i) => s + i.price_fen, 0)).toBe(22968)
      await expectLedgerConsistent(db)
    })

    it('refuses a withdrawn or unknown bundle, and a visitor', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token, { active: false })
      const m = await makeMember(db)
      expect(
        (await call('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' })).body,
      ).toMatchObject({ code: 482, msg: '该套餐已停售' })
      expect(
        (await call('POST', '/api/foryou/pay', m.token, { id: 999_999, pay_method: 'wechat_h5' })).body,
      ).toMatchObject({ code: 404, msg: '套餐不存在' })
      expect((await call('POST', '/api/foryou/pay', null, { id: b.id, pay_method: 'wechat_h5' })).body.code).toBe(301)
      expect((await call('POST', '/api/foryou/pay', m.token, { pay_method: 'wechat_h5' })).body).toMatchObject({
        code: 400,
        msg: '请填写编号',
      })
    })

    it('applies a category coupon to the courses of that category only', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const [course] = await db
        .select({ categoryId: (await import('#server/db/schema/catalogue.ts')).courses.categoryId })
        .from((await import('#server/db/schema/catalogue.ts')).courses)
        .where(eq((await import('#server/db/schema/catalogue.ts')).courses.id, b.courses[0]!))
      // Each made course has its own category: the coupon covers 课程甲 only (its share of the bundle: 6,932 fen).
      const template = (
        await call<{ id: number }>('POST', '/api/admin/coupon-templates', admin.token, {
          name: '分类八折',
          kind: 'percent',
          percent_off: 20,
          scope: 'category',
          scope_ids: [course!.categoryId],
          valid_days: 30,
        })
      ).body.data.id
      const m = await makeMember(db)
      expect((await call('POST', '/api/coupon', m.token, { template_id: template })).body.code).toBe(200)
      const preview = (await call<Preview>('GET', `/api/foryou/pay/preview?id=${b.id}`, m.token)).body.data
      expect(preview.discount_fen).toBe(Math.floor((6932 * 20) / 100))
      expect(preview.amount_fen).toBe(29900 - 1386)
      const order = (await call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' }))
        .body.data
      expect(order).toMatchObject({ amount_fen: 28514, discount_fen: 1386, original_fen: 29900 })
      await expectLedgerConsistent(db)
    })

    it("a course bought alone while the bundle order was open: the bundle is paid and that course's share goes back", async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const m = await makeMember(db)
      const order = (await call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' }))
        .body.data
      // Before paying the bundle, the member buys its second course on its own page.
      const single = (
        await call<Checkout>('POST', '/api/pay/course', m.token, { course_id: b.courses[1], pay_method: 'wechat_h5' })
      ).body.data
      sims().wechat.pay(single.order_no)
      await settleSimulators(t().app)
      sims().wechat.pay(order.order_no)
      await settleSimulators(t().app)
      // The refund is sent after the payment commits; the simulator's notification completes it.
      await until(async () => {
        await settleSimulators(t().app)
        return (
          (await call<{ state: string }>('GET', `/api/orders/${order.order_no}`, m.token)).body.data.state ===
          'partially_refunded'
        )
      })
      const items = (
        await call<{ items: { course_id: number; price_fen: number }[] }>(
          'GET',
          `/api/orders/${order.order_no}`,
          m.token,
        )
      ).body.data.items
      const share = items.find((i) => i.course_id === b.courses[1])!.price_fen
      const detail = (
        await call<{ state: string; refunded_fen: number; events: { reason: string }[] }>(
          'GET',
          `/api/orders/${order.order_no}`,
          m.token,
        )
      ).body.data
      expect(detail).toMatchObject({ state: 'partially_refunded', refunded_fen: share })
      expect(detail.events.map((e) => e.reason)).toEqual([
        'created',
        'paid',
        'owned_courses_refund',
        'refund_succeeded',
      ])
      expect(sims().wechat.trades.get(order.order_no)!.total).toBe(29900)
      expect(await active(m.id)).toEqual(b.courses.slice(0, 3))
      await expectLedgerConsistent(db)
    })

    it('two taps at once make one order', async () => {
      const db = t().database.db
      const admin = await makeMember(db, 'admin')
      const b = await bundle(admin.token)
      const m = await makeMember(db)
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          call<Checkout>('POST', '/api/foryou/pay', m.token, { id: b.id, pay_method: 'wechat_h5' }),
        ),
      )
      expect(answers.every((a) => a.body.code === 200)).toBe(true)
      expect(new Set(answers.map((a) => a.body.data.order_no)).size).toBe(1)
      await expectLedgerConsistent(db)
    })
  })
})
