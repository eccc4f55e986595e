import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { orderEvents, orders } from '#server/db/schema/orders.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { signIn } from '#server/modules/auth/testing.ts'
import { verifyPaySign } from '#server/integrations/payments/wechatpay-crypto.ts'
import { TestWechatPay } from '#server/integrations/payments/test-keys/test-keys.ts'
import {
  expectLedgerConsistent,
  headersOf,
  paidCourse,
  setOpenid,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { useTestApp } from '#tests/support/app.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'

interface Checkout {
  order_no: string
  kind: string
  state: string
  title: string
  amount_fen: number
  pay_method: string
  expires_at: string
  reused: boolean
  jsapi: Record<string, string> | null
  h5_url: string | null
  code_url: string | null
  redirect_url: string | null
}

interface Order {
  order_no: string
  state: string
  kind: string
  amount_fen: number
  items: { course_id: number | null; vip_plan_id: number | null; title: string; price_fen: number }[]
  events?: { from: string | null; to: string; reason: string }[]
}

describe('orders', () => {
  const { t, clock } = useCommerceApp()

  const post = async <T = Checkout>(
    url: string,
    token: string | null,
    payload: unknown,
    extra: Record<string, string> = {},
  ) => {
    const res = await t().app.inject({
      method: 'POST',
      url,
      payload: payload as Record<string, unknown>,
      headers: token ? headersOf(token, extra) : extra,
    })
    return { res, body: res.json<ApiBody<T>>() }
  }
  const get = async <T = Order>(url: string, token: string) => {
    const res = await t().app.inject({ method: 'GET', url, headers: headersOf(token) })
    return { res, body: res.json<ApiBody<T>>() }
  }

  describe('POST /api/pay/course', () => {
    it('asks a visitor without a session to log in (301)', async () => {
      const course = await makeCourse(t().database.db)
      const { body } = await post('/api/pay/course', null, { course_id: course, pay_method: 'wechat_h5' })
      expect(body.code).toBe(301)
    })

    it('names a missing or malformed field with 400', async () => {
      const m = await makeMember(t().database.db)
      expect((await post('/api/pay/course', m.token, { pay_method: 'wechat_h5' })).body).toMatchObject({
        code: 400,
        msg: '请填写课程',
      })
      expect((await post('/api/pay/course', m.token, { course_id: '12', pay_method: 'wechat_h5' })).body).toMatchObject(
        { code: 400, msg: '课程格式不正确' },
      )
      expect((await post('/api/pay/course', m.token, { course_id: 1, pay_method: 'cash' })).body).toMatchObject({
        code: 400,
        msg: '支付方式格式不正确',
      })
      expect((await post('/api/pay/course', m.token, { course_id: -1, pay_method: 'wechat_h5' })).res.statusCode).toBe(
        400,
      )
    })

    it('answers 404 for a course that does not exist or is not published', async () => {
      const m = await makeMember(t().database.db)
      const draft = await makeCourse(t().database.db, { status: 'draft' })
      expect(
        (await post('/api/pay/course', m.token, { course_id: 999_999, pay_method: 'wechat_h5' })).body,
      ).toMatchObject({ code: 404, msg: '课程不存在' })
      expect((await post('/api/pay/course', m.token, { course_id: draft, pay_method: 'wechat_h5' })).body.code).toBe(
        404,
      )
    })

    it('refuses a free course with 481', async () => {
      const m = await makeMember(t().database.db)
      const free = await makeCourse(t().database.db, { isFree: true, priceFen: 0 })
      const { body } = await post('/api/pay/course', m.token, { course_id: free, pay_method: 'wechat_h5' })
      expect(body).toMatchObject({ code: 481, msg: '这是免费课程，无需购买，直接观看即可' })
    })

    it('refuses a course the member already owns with 480, also through a system course', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      await insertEntitlement(db, {
        memberId: m.id,
        courseId: course,
        source: 'admin',
        grantedAt: clock.now(),
        expiresAt: null,
      })
      expect((await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.code).toBe(
        480,
      )
      const part = await makeCourse(db)
      const system = await makeCourse(db, { type: 'system' })
      await db.execute(sql`insert into system_course_items (system_course_id, course_id) values (${system}, ${part})`)
      await insertEntitlement(db, {
        memberId: m.id,
        courseId: system,
        source: 'admin',
        grantedAt: clock.now(),
        expiresAt: null,
      })
      expect((await post('/api/pay/course', m.token, { course_id: part, pay_method: 'wechat_h5' })).body.code).toBe(480)
    })

    it('lets a member buy again once an entitlement expired', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      await insertEntitlement(db, {
        memberId: m.id,
        courseId: course,
        source: 'admin',
        grantedAt: new Date(clock.now().getTime() - 7200_000),
        expiresAt: new Date(clock.now().getTime() - 1),
      })
      expect((await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.code).toBe(
        200,
      )
    })

    it('creates a pending order and returns the H5 payment URL with the way back (signed in through SMS)', async () => {
      const db = t().database.db
      const { token } = await signIn(t().app)
      const course = await makeCourse(db, { title: 'Photoshop 入门', priceFen: 19900 })
      const { body } = await post('/api/pay/course', token, {
        course_id: course,
        pay_method: 'wechat_h5',
        sp: 'poster_7',
      })
      expect(body.code).toBe(200)
      const d = body.data
      expect(d).toMatchObject({
        kind: 'course',
        state: 'pending',
        title: 'Photoshop 入门',
        amount_fen: 19900,
        pay_method: 'wechat_h5',
        reused: false,
        jsapi: null,
        code_url: null,
        redirect_url: null,
      })
      expect(d.order_no).toMatch(/^ZX\d{8}\d{10}$/)
      expect(new Date(d.expires_at).getTime() - clock.now().getTime()).toBeGreaterThan(29 * 60_000)
      const h5 = new URL(d.h5_url!)
      expect(h5.pathname).toBe('/__sim/wechatpay/checkmweb')
      expect(h5.searchParams.get('redirect_url')).toBe(`http://localhost:3000/payRedirect?order_no=${d.order_no}`)
      const [row] = await db.select().from(orders).where(eq(orders.orderNo, d.order_no))
      expect(row).toMatchObject({ target: `course:${course}`, sp: 'poster_7', amountFen: 19900, originalFen: 19900 })
      const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, row!.id))
      expect(events.map((e) => [e.fromState, e.toState, e.reason])).toEqual([[null, 'pending', 'created']])
    })

    it('reuses the pending order on a second tap and replaces it when the method changes', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const first = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.data
      const again = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.data
      expect(again).toMatchObject({ order_no: first.order_no, reused: true })
      expect(new URL(again.h5_url!).searchParams.get('prepay_id')).toBe(
        new URL(first.h5_url!).searchParams.get('prepay_id'),
      )

      const alipay = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'alipay_wap' })).body.data
      expect(alipay.order_no).not.toBe(first.order_no)
      const gateway = new URL(alipay.redirect_url!)
      expect(gateway.pathname).toBe('/__sim/alipay/gateway.do')
      expect(gateway.searchParams.get('method')).toBe('alipay.trade.wap.pay')
      expect(gateway.searchParams.get('return_url')).toBe(
        `http://localhost:3000/payRedirect?order_no=${alipay.order_no}`,
      )
      expect(JSON.parse(gateway.searchParams.get('biz_content')!)).toMatchObject({
        out_trade_no: alipay.order_no,
        total_amount: '99.00',
        product_code: 'QUICK_WAP_WAY',
      })
      const old = (await get(`/api/orders/${first.order_no}`, m.token)).body.data
      expect(old.state).toBe('closed')
      expect(old.events!.at(-1)).toMatchObject({ from: 'pending', to: 'closed', reason: 'replaced' })
      // The old trade was closed at WeChat Pay too (best effort, after the answer).
      await new Promise((r) => setTimeout(r, 50))
      expect(t().app.paymentSimulators!.wechat.trades.get(first.order_no)?.state).toBe('CLOSED')
    })

    it('makes a fresh order when the pending one is about to expire', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const first = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_native' })).body
        .data
      clock.advance(29 * 60_000)
      try {
        const second = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_native' })).body
          .data
        expect(second.order_no).not.toBe(first.order_no)
      } finally {
        clock.reset()
      }
    })

    it('returns a code_url for Native (desktop QR)', async () => {
      const m = await makeMember(t().database.db)
      const course = await makeCourse(t().database.db)
      const d = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_native' })).body.data
      expect(d.code_url).toMatch(/\/__sim\/wechatpay\/scan\?pr=/)
      expect(d.h5_url).toBeNull()
    })

    it('needs the member openid for JSAPI (484) and then returns signed bridge parameters', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      expect(
        (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_jsapi' })).body,
      ).toMatchObject({ code: 484 })
      await setOpenid(db, m.id, `o_test_${m.id}`)
      const d = (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_jsapi' })).body.data
      expect(d.jsapi).toMatchObject({ appId: 'wx_simulated_app', signType: 'RSA' })
      expect(d.jsapi!.package).toMatch(/^prepay_id=wx/)
      expect(d.jsapi!.nonceStr).toMatch(/^[0-9A-F]{32}$/)
      expect(verifyPaySign(d.jsapi as never, TestWechatPay.merchantPublicKey)).toBe(true)
      expect(t().app.paymentSimulators!.wechat.trades.get(d.order_no)).toMatchObject({
        openid: `o_test_${m.id}`,
        tradeType: 'JSAPI',
      })
    })

    it('gives two taps at once one order', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }),
        ),
      )
      expect(answers.every((a) => a.body.code === 200)).toBe(true)
      expect(new Set(answers.map((a) => a.body.data.order_no)).size).toBe(1)
      const count = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from orders where member_id = ${m.id}`,
      )
      expect(count.rows[0]!.n).toBe(1)
      await expectLedgerConsistent(db)
    })
  })

  describe('Idempotency-Key', () => {
    it('answers a repeat with the first answer, even after the order changed', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const key = { 'idempotency-key': `buy-${course}-abcdef` }
      const first = await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }, key)
      // Without the key the method change would replace the order; a repeat with the key does not even run.
      const repeat = await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }, key)
      expect(repeat.res.headers['idempotent-replayed']).toBe('true')
      expect(repeat.res.body).toBe(first.res.body)
    })

    it('refuses the same key on another request with 487, and a malformed key with 400', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const key = { 'idempotency-key': 'same-key-123' }
      expect(
        (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }, key)).body.code,
      ).toBe(200)
      expect(
        (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'alipay_wap' }, key)).body.code,
      ).toBe(487)
      expect(
        (
          await post(
            '/api/pay/course',
            m.token,
            { course_id: course, pay_method: 'wechat_h5' },
            { 'idempotency-key': 'short' },
          )
        ).body.code,
      ).toBe(400)
    })

    it('keeps keys per member and keeps a business refusal as the first answer', async () => {
      const db = t().database.db
      const a = await makeMember(db)
      const b = await makeMember(db)
      const free = await makeCourse(db, { isFree: true, priceFen: 0 })
      const key = { 'idempotency-key': 'shared-key-xyz' }
      const refused = await post('/api/pay/course', a.token, { course_id: free, pay_method: 'wechat_h5' }, key)
      expect(refused.body.code).toBe(481)
      const repeat = await post('/api/pay/course', a.token, { course_id: free, pay_method: 'wechat_h5' }, key)
      expect(repeat.res.headers['idempotent-replayed']).toBe('true')
      expect(repeat.body.code).toBe(481)
      const other = await post('/api/pay/course', b.token, { course_id: free, pay_method: 'wechat_h5' }, key)
      expect(other.res.headers['idempotent-replayed']).toBeUndefined()
    })

    it('gives concurrent repeats one order: the first answer or "in progress" (488)', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const course = await makeCourse(db)
      const key = { 'idempotency-key': 'burst-key-0001' }
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' }, key),
        ),
      )
      expect(answers.every((a) => a.body.code === 200 || a.body.code === 488)).toBe(true)
      expect(new Set(answers.filter((a) => a.body.code === 200).map((a) => a.body.data.order_no)).size).toBe(1)
    })
  })

  describe('POST /api/pay/vip', () => {
    it('creates a VIP order for a plan on sale; 404 for an unknown plan, 482 for a withdrawn one', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const [plan] = await db.insert(vipPlans).values({ name: '年卡', days: 365, priceFen: 29900 }).returning()
      const [old] = await db
        .insert(vipPlans)
        .values({ name: '停售', days: 7, priceFen: 990, active: false })
        .returning()
      const d = (await post('/api/pay/vip', m.token, { plan_id: plan!.id, pay_method: 'alipay_wap' })).body.data
      expect(d).toMatchObject({ kind: 'vip', title: 'VIP 会员 · 年卡', amount_fen: 29900 })
      expect((await post('/api/pay/vip', m.token, { plan_id: 999_999, pay_method: 'alipay_wap' })).body.code).toBe(404)
      expect((await post('/api/pay/vip', m.token, { plan_id: old!.id, pay_method: 'alipay_wap' })).body.code).toBe(482)
    })
  })

  describe('POST /api/pay/amount', () => {
    it('takes 1 fen to 5,000,000 fen with a title', async () => {
      const m = await makeMember(t().database.db)
      for (const amount_fen of [0, 5_000_001, 1.5]) {
        expect(
          (await post('/api/pay/amount', m.token, { amount_fen, title: '学费', pay_method: 'wechat_h5' })).res
            .statusCode,
        ).toBe(400)
      }
      expect(
        (await post('/api/pay/amount', m.token, { amount_fen: 100, title: '   ', pay_method: 'wechat_h5' })).body.code,
      ).toBe(400)
      expect(
        (await post('/api/pay/amount', m.token, { amount_fen: 100, title: 'x'.repeat(61), pay_method: 'wechat_h5' }))
          .body.code,
      ).toBe(400)
      const d = (
        await post('/api/pay/amount', m.token, { amount_fen: 5_000_000, title: ' 定金 ', pay_method: 'wechat_h5' })
      ).body.data
      expect(d).toMatchObject({ kind: 'amount', title: '定金', amount_fen: 5_000_000 })
      const other = (await post('/api/pay/amount', m.token, { amount_fen: 1, title: '定金', pay_method: 'wechat_h5' }))
        .body.data
      expect(other.order_no).not.toBe(d.order_no)
    })
  })

  describe('GET /api/pay/course and /api/orders', () => {
    it("shows a member their own order and answers another member's like a missing one (404)", async () => {
      const db = t().database.db
      const owner = await makeMember(db)
      const stranger = await makeMember(db)
      const course = await makeCourse(db, { title: '剪映教程', priceFen: 4900 })
      const d = (await post('/api/pay/course', owner.token, { course_id: course, pay_method: 'wechat_h5' })).body.data
      const status = (await get(`/api/pay/course?order_no=${d.order_no}`, owner.token)).body
      expect(status).toMatchObject({
        code: 200,
        data: {
          order_no: d.order_no,
          state: 'pending',
          kind: 'course',
          amount_fen: 4900,
          items: [{ course_id: course, title: '剪映教程', price_fen: 4900 }],
        },
      })
      const missing = await get('/api/pay/course?order_no=ZX2026112200000000', stranger.token)
      const foreign = await get(`/api/pay/course?order_no=${d.order_no}`, stranger.token)
      expect(foreign.res.statusCode).toBe(404)
      expect(foreign.body).toEqual(missing.body)
      expect(foreign.body).toEqual({ code: 404, msg: '订单不存在', data: {} })
      const detail = await get(`/api/orders/${d.order_no}`, stranger.token)
      expect(detail.body).toEqual({ code: 404, msg: '订单不存在', data: {} })
    })

    it('lists my orders newest first, by kind, with cursor paging', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const nos: string[] = []
      for (let i = 0; i < 3; i++) {
        const course = await makeCourse(db)
        nos.push(
          (await post('/api/pay/course', m.token, { course_id: course, pay_method: 'wechat_h5' })).body.data.order_no,
        )
      }
      nos.push(
        (await post('/api/pay/amount', m.token, { amount_fen: 500, title: '资料费', pay_method: 'wechat_h5' })).body
          .data.order_no,
      )
      const page1 = (await get<{ list: Order[]; next_cursor: number | null }>('/api/orders?limit=2', m.token)).body.data
      expect(page1.list.map((o) => o.order_no)).toEqual([nos[3], nos[2]])
      const page2 = (
        await get<{ list: Order[]; next_cursor: number | null }>(
          `/api/orders?limit=2&cursor=${page1.next_cursor}`,
          m.token,
        )
      ).body.data
      expect(page2.list.map((o) => o.order_no)).toEqual([nos[1], nos[0]])
      expect(page2.next_cursor).toBeNull()
      const courses = (await get<{ list: Order[] }>('/api/orders?kind=course', m.token)).body.data
      expect(courses.list).toHaveLength(3)
      expect((await get('/api/orders?kind=shoes', m.token)).res.statusCode).toBe(400)
      const other = await makeMember(db)
      expect((await get<{ list: Order[] }>('/api/orders', other.token)).body.data.list).toEqual([])
    })

    it('pages one kind with a cursor, each order with its own items only', async () => {
      const db = t().database.db
      const m = await makeMember(db)
      const courses: number[] = []
      const nos: string[] = []
      for (let i = 0; i < 3; i++) {
        courses.push(await makeCourse(db))
        nos.push(
          (await post('/api/pay/course', m.token, { course_id: courses[i], pay_method: 'wechat_h5' })).body.data
            .order_no,
        )
        // An order of another kind between them: the kind filter and the cursor must both hold on the next page.
        await post('/api/pay/amount', m.token, { amount_fen: 100 + i, title: `资料费${i}`, pay_method: 'wechat_h5' })
      }
      type Page = { list: Order[]; next_cursor: number | null }
      const page1 = (await get<Page>('/api/orders?kind=course&limit=2', m.token)).body.data
      expect(page1.list.map((o) => [o.order_no, o.items.map((i) => i.course_id)])).toEqual([
        [nos[2], [courses[2]]],
        [nos[1], [courses[1]]],
      ])
      const page2 = (await get<Page>(`/api/orders?kind=course&limit=2&cursor=${page1.next_cursor}`, m.token)).body.data
      expect(page2.list.map((o) => [o.order_no, o.items.map((i) => i.course_id)])).toEqual([[nos[0], [courses[0]]]])
      expect(page2.next_cursor).toBeNull()
      // An amount order's one item names no course; the last page of everything ends at the first order.
      const all = (await get<Page>('/api/orders?limit=5', m.token)).body.data
      expect(all.list.map((o) => o.items.map((i) => i.course_id))).toEqual([
        [null],
        [courses[2]],
        [null],
        [courses[1]],
        [null],
      ])
      const rest = (await get<Page>(`/api/orders?limit=5&cursor=${all.next_cursor}`, m.token)).body.data
      expect(rest.list.map((o) => o.order_no)).toEqual([nos[0]])
      expect(rest.next_cursor).toBeNull()
    })
  })
})

describe('operators: GET /api/admin/orders (and as CSV)', () => {
  const { t } = useCommerceApp()

  it('searches by state, kind, sp, date and order number, phone or member id; members get 403', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const course = await makeCourse(db, { title: '=HYPERLINK("x")', priceFen: 12345 })
    const buy = async (url: string, payload: Record<string, unknown>) =>
      (await t().app.inject({ method: 'POST', url, headers: headersOf(m.token), payload })).json<ApiBody<Checkout>>()
        .data
    const c = await buy('/api/pay/course', { course_id: course, pay_method: 'wechat_h5', sp: 'teacher_li' })
    const a = await buy('/api/pay/amount', { amount_fen: 990, title: '资料费, "印刷"', pay_method: 'alipay_wap' })
    const list = async (query: string) =>
      (
        await t().app.inject({ method: 'GET', url: `/api/admin/orders?${query}`, headers: headersOf(admin.token) })
      ).json<ApiBody<{ list: { order_no: string; phone: string; sp: string | null }[] }>>()
    expect((await list(`q=${c.order_no}`)).data.list.map((o) => o.order_no)).toEqual([c.order_no])
    expect((await list(`q=${m.id}`)).data.list.map((o) => o.order_no)).toEqual([a.order_no, c.order_no])
    expect((await list(`q=${m.id}&sort=created_at`)).data.list.map((o) => o.order_no)).toEqual([c.order_no, a.order_no])
    expect((await list(`q=${m.id}&sort=-amount_fen`)).data.list.map((o) => o.order_no)).toEqual([
      c.order_no,
      a.order_no,
    ])
    const firstPage = (await list(`q=${m.id}&page_size=1&page=2`)).data as unknown as { list: unknown[]; total: number }
    expect([firstPage.list.length, firstPage.total]).toEqual([1, 2])
    const byPhone = (await list(`q=${(await list(`q=${m.id}`)).data.list[0]!.phone}`)).data.list
    expect(byPhone).toHaveLength(2)
    expect((await list(`q=${m.id}&kind=amount`)).data.list.map((o) => o.order_no)).toEqual([a.order_no])
    expect((await list(`q=${m.id}&sp=teacher_li`)).data.list.map((o) => o.order_no)).toEqual([c.order_no])
    expect((await list(`q=${m.id}&state=paid`)).data.list).toEqual([])
    expect((await list(`q=${m.id}&from=2000-01-01&to=2000-01-02`)).data.list).toEqual([])
    expect((await list('from=2026-13')).code).toBe(400)
    const forbidden = await t().app.inject({ method: 'GET', url: '/api/admin/orders', headers: headersOf(m.token) })
    expect(forbidden.statusCode).toBe(403)

    const csv = await t().app.inject({
      method: 'GET',
      url: `/api/admin/orders?q=${m.id}&format=csv`,
      headers: headersOf(admin.token),
    })
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="orders-/)
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(
      '订单号,会员ID,手机号,类型,标题,应付(元),原价(元),优惠(元),积分,状态,支付方式,支付平台,交易号,退款(元),推广来源,下单时间,支付时间,关闭时间',
    )
    expect(lines).toHaveLength(3)
    expect(lines[1]).toContain(`${a.order_no},${m.id},`)
    expect(lines[1]).toContain(',"资料费, ""印刷""",9.90,9.90,0.00,0,pending,alipay_wap,')
    expect(lines[2]).toContain(`,"'=HYPERLINK(""x"")",123.45,`)
    expect(lines[2]).toContain(',teacher_li,')
  })

  it('finds the orders of a course, and shows one order with its whole event log', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const { m, course, orderNo } = await paidCourse(t, { priceFen: 4200 })
    const other = await makeCourse(db)
    const list = async (query: string) =>
      (
        await t().app.inject({ method: 'GET', url: `/api/admin/orders?${query}`, headers: headersOf(admin.token) })
      ).json<ApiBody<{ list: { order_no: string }[] }>>()
    expect((await list(`course_id=${course}`)).data.list.map((o) => o.order_no)).toEqual([orderNo])
    expect((await list(`course_id=${other}`)).data.list).toEqual([])
    expect((await list('course_id=abc')).msg).toBe('课程格式不正确')

    const detail = async (no: string, token = admin.token) =>
      (await t().app.inject({ method: 'GET', url: `/api/admin/orders/${no}`, headers: headersOf(token) })).json<
        ApiBody<{
          order_no: string
          member_id: number
          phone: string
          state: string
          events: { from: string | null; to: string; reason: string; actor: string }[]
        }>
      >()
    const d = await detail(orderNo)
    expect(d.data).toMatchObject({
      order_no: orderNo,
      member_id: m.id,
      state: 'paid',
    })
    expect(d.data.phone).toMatch(/^139/)
    expect(d.data.events.map((e) => [e.from, e.to, e.reason, e.actor])).toEqual([
      [null, 'pending', 'created', `member:${m.id}`],
      ['pending', 'paid', 'paid', 'provider:wechat'],
    ])
    expect((await detail('ZX000000000000000000')).code).toBe(404)
    expect((await detail(orderNo, m.token)).code).toBe(403)
  })
})

describe('orders when the payment provider fails', () => {
  const holder: { app?: () => { app: import('fastify').FastifyInstance } } = {}
  const failing: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    if (url.pathname.startsWith('/__sim/wechatpay/v3/')) throw new TypeError('fetch failed')
    return injectFetch(() => holder.app!().app)(input, init)
  }
  const t = useTestApp({ PAYMENT_SWEEPS: 'false' }, { integrations: { paymentsFetch: failing } })
  holder.app = t

  it('answers 485 and keeps the pending order for the next tap', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db)
    const res = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: course, pay_method: 'wechat_h5' },
    })
    expect(res.json()).toEqual({ code: 485, msg: '支付服务暂时不可用，请稍后重试', data: {} })
    const [row] = await db.select().from(orders).where(eq(orders.memberId, m.id))
    expect(row!.state).toBe('pending')
    const alipay = await t().app.inject({
      method: 'POST',
      url: '/api/pay/course',
      headers: headersOf(m.token),
      payload: { course_id: course, pay_method: 'alipay_wap' },
    })
    expect(alipay.json<ApiBody>().code).toBe(200)
  })
})
