import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { vipPlans } from '#server/db/schema/vip.ts'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import {
  expectLedgerConsistent,
  headersOf,
  paidCourse,
  settleSimulators,
  until,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'

interface Refund {
  refund_no: string
  order_no: string
  state: string
  amount_fen: number
  reason: string
  decision_note: string | null
}

interface Check {
  refundable: boolean
  code: number
  msg: string
  amount_fen: number
  watched_percent: number | null
  deadline: string | null
  refunds: Refund[]
}

describe('refunds', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  async function active(memberId: number, courseId: number) {
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

  it('a member asks, an admin approves, WeChat Pay refunds and access is gone', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const { m, course, orderNo } = await paidCourse(t)
    const check = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).body.data
    expect(check).toMatchObject({ refundable: true, code: 200, amount_fen: 10000, watched_percent: 0, refunds: [] })
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '买错了课程' }))
      .body
    expect(asked).toMatchObject({
      code: 200,
      data: { order_no: orderNo, state: 'requested', amount_fen: 10000, reason: '买错了课程' },
    })
    expect((await call('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '再申请一次' })).body.code).toBe(
      493,
    )

    const list = (
      await call<{ list: (Refund & { phone: string })[] }>('GET', '/api/admin/refunds?state=requested', admin.token)
    ).body.data.list
    const listed = list.find((r) => r.refund_no === asked.data.refund_no)
    expect(listed).toMatchObject({ order_no: orderNo })
    expect(listed!.phone).toMatch(/^139/)
    const approved = (
      await call<Refund>('POST', `/api/admin/refunds/${asked.data.refund_no}/approve`, admin.token, { note: '同意' })
    ).body
    expect(approved.data.state).toBe('processing')
    await until(
      async () =>
        (await call<{ state: string }>('GET', `/api/orders/${orderNo}`, m.token)).body.data.state === 'refunded',
    )
    await settleSimulators(t().app)
    const order = (
      await call<{ state: string; refunded_fen: number; events: { reason: string; to: string }[] }>(
        'GET',
        `/api/orders/${orderNo}`,
        m.token,
      )
    ).body.data
    expect(order.refunded_fen).toBe(10000)
    expect(order.events.map((e) => e.reason)).toEqual([
      'created',
      'paid',
      'refund_requested',
      'refund_approved',
      'refund_succeeded',
    ])
    expect(await active(m.id, course)).toEqual([])
    const after = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).body.data
    expect(after).toMatchObject({ refundable: false, code: 490 })
    expect(after.refunds[0]).toMatchObject({ state: 'succeeded', decision_note: '同意' })
    await expectLedgerConsistent(db)

    // Finance exports what the state filter shows, as CSV.
    const csv = await t().app.inject({
      method: 'GET',
      url: '/api/admin/refunds?state=succeeded&format=csv',
      headers: headersOf(admin.token),
    })
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines[0]).toBe(
      '退款单号,订单号,订单标题,会员ID,手机号,类型,状态,退款(元),订单实付(元),原因,处理备注,申请时间,处理时间,完成时间,失败原因',
    )
    expect(lines.slice(1).find((l) => l.startsWith(`${asked.data.refund_no},`))).toContain(
      `,${orderNo},测试课程,${m.id},`,
    )
    expect(lines.slice(1).every((l) => l.includes(',succeeded,'))).toBe(true)
    const none = await t().app.inject({
      method: 'GET',
      url: '/api/admin/refunds?state=rejected&format=csv',
      headers: headersOf(admin.token),
    })
    expect(
      none.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(1)
    expect(
      (await t().app.inject({ method: 'GET', url: '/api/admin/refunds?format=csv', headers: headersOf(m.token) }))
        .statusCode,
    ).toBe(403)
  })

  it('Alipay refunds complete in the answer; a partial refund keeps access', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const { m, course, orderNo } = await paidCourse(t, { payMethod: 'alipay_wap', priceFen: 9900 })
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '部分内容不需要' }))
      .body.data
    expect(
      (await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, { amount_fen: 9901 })).body
        .code,
    ).toBe(400)
    const approved = (
      await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, { amount_fen: 3000 })
    ).body.data
    expect(approved).toMatchObject({ state: 'succeeded', amount_fen: 3000 })
    const order = (await call<{ state: string; refunded_fen: number }>('GET', `/api/orders/${orderNo}`, m.token)).body
      .data
    expect(order).toMatchObject({ state: 'partially_refunded', refunded_fen: 3000 })
    expect(sims().alipay.trades.get(orderNo)!.refunded).toBe(3000)
    expect(await active(m.id, course)).toHaveLength(1)
    const check = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).body.data
    expect(check).toMatchObject({ refundable: true, amount_fen: 6900 })
    await expectLedgerConsistent(db)
  })

  it('rejects with a note; the member sees it and may ask again', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const { m, orderNo } = await paidCourse(t)
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '不想学了' })).body
      .data
    const rejected = (
      await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/reject`, admin.token, {
        note: '已超出服务范围',
      })
    ).body.data
    expect(rejected).toMatchObject({ state: 'rejected', decision_note: '已超出服务范围' })
    expect((await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})).body.code).toBe(494)
    expect(
      (await call('POST', `/api/admin/refunds/${asked.refund_no}/reject`, admin.token, { note: '再拒绝' })).body.code,
    ).toBe(494)
    const check = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).body.data
    expect(check.refunds.map((r) => r.state)).toEqual(['rejected'])
    expect(check.refundable).toBe(true)
    expect((await call<{ state: string }>('GET', `/api/orders/${orderNo}`, m.token)).body.data.state).toBe('paid')
  })

  it('refuses after the 7-day window (491) and after 20% watched (492)', async () => {
    const db = t().database.db
    const late = await paidCourse(t)
    clock.advance(7 * 86_400_000 + 60_000)
    try {
      const check = (await call<Check>('GET', `/api/refunds/check?order_no=${late.orderNo}`, late.m.token)).body.data
      expect(check).toMatchObject({ refundable: false, code: 491, msg: '已超过 7 天退款期限' })
      expect(
        (await call('POST', '/api/refunds', late.m.token, { order_no: late.orderNo, reason: '太晚了吗' })).body,
      ).toMatchObject({ code: 491 })
    } finally {
      clock.reset()
    }
    const watched = await paidCourse(t)
    await db.insert(studyProgress).values({
      memberId: watched.m.id,
      videoId: watched.video,
      courseId: watched.course,
      position: 119,
      duration: 600,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    expect(
      (await call<Check>('GET', `/api/refunds/check?order_no=${watched.orderNo}`, watched.m.token)).body.data,
    ).toMatchObject({ refundable: true, watched_percent: 19 })
    await db.update(studyProgress).set({ position: 120 }).where(eq(studyProgress.memberId, watched.m.id))
    const res = (await call('POST', '/api/refunds', watched.m.token, { order_no: watched.orderNo, reason: '看了一点' }))
      .body
    expect(res).toMatchObject({ code: 492, msg: '课程已观看 20%，超过 20% 后不能退款' })
  })

  it("refuses pending orders (490), another member's order (404), bad input (400) and non-admins (403)", async () => {
    const db = t().database.db
    const { m, orderNo } = await paidCourse(t)
    const stranger = await makeMember(db)
    expect(
      (await call('POST', '/api/refunds', stranger.token, { order_no: orderNo, reason: '不是我的' })).body,
    ).toEqual({ code: 404, msg: '订单不存在', data: {} })
    expect((await call('GET', `/api/refunds/check?order_no=${orderNo}`, stranger.token)).body.code).toBe(404)
    const course = await makeCourse(db)
    const pending = (
      await call<{ order_no: string }>('POST', '/api/pay/course', m.token, {
        course_id: course,
        pay_method: 'wechat_h5',
      })
    ).body.data
    expect(
      (await call('POST', '/api/refunds', m.token, { order_no: pending.order_no, reason: '还没付' })).body.code,
    ).toBe(490)
    expect((await call('POST', '/api/refunds', m.token, { order_no: orderNo, reason: 'x' })).body.code).toBe(400)
    expect((await call('POST', '/api/refunds', m.token, { order_no: orderNo })).body.code).toBe(400)
    expect((await call('GET', '/api/admin/refunds', m.token)).res.statusCode).toBe(403)
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '理由足够' })).body
      .data
    expect((await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, m.token, {})).res.statusCode).toBe(403)
  })

  it('two requests at once: one is taken', async () => {
    const { m, orderNo } = await paidCourse(t)
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '同时申请' })),
    )
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 493, 493, 493, 493])
  })

  it('a refunded VIP order takes its days back', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const [plan] = await db.insert(vipPlans).values({ name: '月卡', days: 30, priceFen: 3900 }).returning()
    const d = (
      await call<{ order_no: string }>('POST', '/api/pay/vip', m.token, { plan_id: plan!.id, pay_method: 'wechat_h5' })
    ).body.data
    sims().wechat.pay(d.order_no)
    await settleSimulators(t().app)
    const [before] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: d.order_no, reason: '误购会员' }))
      .body.data
    await call('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})
    await until(
      async () =>
        (await call<{ state: string }>('GET', `/api/orders/${d.order_no}`, m.token)).body.data.state === 'refunded',
    )
    await settleSimulators(t().app)
    const [after] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    expect(before!.expiresAt.getTime() - after!.expiresAt.getTime()).toBe(30 * 86_400_000)
  })
})
