import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { refunds } from '#server/db/schema/refunds.ts'
import { entitlements } from '#server/db/schema/access.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { runPaymentSweeps } from '#server/modules/payments/sweeps.ts'
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
  kind: string
  state: string
  amount_fen: number
}

interface StaffRefund extends Refund {
  last_error: string | null
  retryable: boolean
  retries: number
  retried_by: number | null
  retried_at: string | null
}

interface OrderDetail {
  state: string
  refunded_fen: number
  events: { from: string | null; to: string; reason: string }[]
}

describe('POST /api/admin/refunds/:refund_no/retry', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  const retry = (token: string, refundNo: string) => call<Refund>('POST', `/api/admin/refunds/${refundNo}/retry`, token)

  async function order(token: string, orderNo: string) {
    return (await call<OrderDetail>('GET', `/api/orders/${orderNo}`, token)).body.data
  }

  async function staffView(adminToken: string, refundNo: string) {
    const list = (await call<{ list: StaffRefund[] }>('GET', '/api/admin/refunds?page_size=100', adminToken)).body.data
      .list
    return list.find((r) => r.refund_no === refundNo)!
  }

  /** Refund requests the WeChat Pay simulator received (tests in a file run one after the other). */
  const refundPosts = () =>
    sims().wechat.requests.filter((r) => r.method === 'POST' && r.path === '/v3/refund/domestic/refunds').length

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

  /** A paid course and the member's refund request, approved by an admin while the provider refuses refunds. */
  async function refusedRefund(payMethod: 'wechat_h5' | 'alipay_wap' = 'wechat_h5') {
    const admin = await makeMember(t().database.db, 'admin')
    const { m, course, orderNo } = await paidCourse(t, { priceFen: 8800, payMethod })
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '不想学了' })).body
      .data
    if (payMethod === 'alipay_wap')
      sims().alipay.faults.refundError = { subCode: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', subMsg: '卖家余额不足' }
    else
      sims().wechat.faults.refundError = {
        status: 403,
        code: 'NOT_ENOUGH',
        message: '基本账户余额不足，请充值后重新发起',
      }
    try {
      const approved = (await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {}))
        .body
      expect(approved).toMatchObject({ code: 200, data: { state: 'failed' } })
    } finally {
      sims().wechat.faults.refundError = null
      sims().alipay.faults.refundError = null
    }
    return { admin, m, course, orderNo, refundNo: asked.refund_no }
  }

  it('sends a refund the provider refused again with the same number; it completes and access is gone', async () => {
    const db = t().database.db
    const { admin, m, course, orderNo, refundNo } = await refusedRefund()
    expect(await order(m.token, orderNo)).toMatchObject({ state: 'paid', refunded_fen: 0 })
    expect(await activeGrants(m.id, course)).toHaveLength(1)
    const failed = await staffView(admin.token, refundNo)
    expect(failed).toMatchObject({ state: 'failed', retryable: true, retries: 0, retried_by: null })
    expect(failed.last_error).toContain('NOT_ENOUGH')
    expect(sims().wechat.refunds.has(refundNo)).toBe(false)
    await expectLedgerConsistent(db)

    const before = refundPosts()
    const retried = (await retry(admin.token, refundNo)).body
    expect(retried).toMatchObject({ code: 200, data: { refund_no: refundNo, state: 'processing', amount_fen: 8800 } })
    expect(refundPosts()).toBe(before + 1)
    expect(sims().wechat.refunds.get(refundNo)).toMatchObject({ outRefundNo: refundNo, amount: 8800 })
    await until(async () => (await order(m.token, orderNo)).state === 'refunded')
    await settleSimulators(t().app)

    const done = await order(m.token, orderNo)
    expect(done.refunded_fen).toBe(8800)
    expect(done.events.map((e) => e.reason)).toEqual([
      'created',
      'paid',
      'refund_requested',
      'refund_approved',
      'refund_failed',
      'refund_retried',
      'refund_succeeded',
    ])
    expect(done.events.find((e) => e.reason === 'refund_retried')).toMatchObject({ from: 'paid', to: 'refunding' })
    const view = await staffView(admin.token, refundNo)
    expect(view).toMatchObject({
      state: 'succeeded',
      retryable: false,
      retries: 1,
      retried_by: admin.id,
      last_error: null,
    })
    expect(new Date(view.retried_at!).getTime()).toBeLessThanOrEqual(clock.now().getTime())
    const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, refundNo))
    expect(row!.retriedBy).toBe(admin.id)
    expect(sims().wechat.trades.get(orderNo)!.refunded).toBe(8800)
    expect(await activeGrants(m.id, course)).toEqual([])
    expect((await retry(admin.token, refundNo)).body).toEqual({ code: 489, msg: '只有失败的退款可以重试', data: {} })
    await expectLedgerConsistent(db)
  })

  it('Alipay: a refund refused for the seller balance succeeds on retry in the answer', async () => {
    const { admin, m, orderNo, refundNo } = await refusedRefund('alipay_wap')
    expect((await staffView(admin.token, refundNo)).last_error).toContain('ACQ.SELLER_BALANCE_NOT_ENOUGH')
    expect(sims().alipay.trades.get(orderNo)!.refunded).toBe(0)
    const retried = (await retry(admin.token, refundNo)).body
    expect(retried).toMatchObject({ code: 200, data: { state: 'succeeded' } })
    expect(await order(m.token, orderNo)).toMatchObject({ state: 'refunded', refunded_fen: 8800 })
    expect(sims().alipay.trades.get(orderNo)!.refunded).toBe(8800)
    await expectLedgerConsistent(t().database.db)
  })

  it('two retries at once: one is taken (489 for the other), the provider refunds once, the ledger holds', async () => {
    const db = t().database.db
    const { admin, m, orderNo, refundNo } = await refusedRefund()
    const admin2 = await makeMember(db, 'admin')
    const before = refundPosts()
    const answers = await Promise.all([
      retry(admin.token, refundNo),
      retry(admin2.token, refundNo),
      retry(admin.token, refundNo),
      retry(admin2.token, refundNo),
    ])
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 489, 489, 489])
    expect(refundPosts()).toBe(before + 1)
    await until(async () => (await order(m.token, orderNo)).state === 'refunded')
    await settleSimulators(t().app)
    const done = await order(m.token, orderNo)
    expect(done.refunded_fen).toBe(8800)
    expect(done.events.filter((e) => e.reason === 'refund_retried')).toHaveLength(1)
    expect(done.events.filter((e) => e.reason === 'refund_succeeded')).toHaveLength(1)
    expect([...sims().wechat.refunds.values()].filter((r) => r.outTradeNo === orderNo)).toHaveLength(1)
    expect(sims().wechat.trades.get(orderNo)!.refunded).toBe(8800)
    expect((await staffView(admin.token, refundNo)).retries).toBe(1)
    await expectLedgerConsistent(db)
  })

  it('refuses refunds that did not fail (489), unknown ones (404), staff and members (403) and bad numbers (400)', async () => {
    const db = t().database.db
    const { admin, m, orderNo, refundNo } = await refusedRefund()
    const staff = await makeMember(db, 'staff')
    const stranger = await makeMember(db)
    expect((await retry(m.token, refundNo)).res.statusCode).toBe(403)
    expect((await retry(stranger.token, refundNo)).res.statusCode).toBe(403)
    expect((await retry(staff.token, refundNo)).res.statusCode).toBe(403)
    expect(
      (await t().app.inject({ method: 'POST', url: `/api/admin/refunds/${refundNo}/retry` })).json<ApiBody>().code,
    ).toBe(301)
    expect((await retry(admin.token, 'RF-NO-SUCH-REFUND')).body).toMatchObject({ code: 404, msg: '退款不存在' })
    expect((await retry(admin.token, 'R'.repeat(41))).body.code).toBe(400)
    expect((await staffView(admin.token, refundNo)).state).toBe('failed')

    // A request still waiting for a decision, one rejected, one processing: not failed, not retried.
    const other = await refusedRefund()
    const asked = (
      await call<Refund>('POST', '/api/refunds', other.m.token, { order_no: other.orderNo, reason: '再申请一次' })
    ).body.data
    expect((await retry(admin.token, asked.refund_no)).body.code).toBe(489)
    await call('POST', `/api/admin/refunds/${asked.refund_no}/reject`, admin.token, { note: '不符合退款条件' })
    expect((await retry(admin.token, asked.refund_no)).body.code).toBe(489)

    sims().wechat.faults.silentRefunds = true
    try {
      expect((await retry(admin.token, refundNo)).body.data.state).toBe('processing')
      expect((await retry(admin.token, refundNo)).body.code).toBe(489)
    } finally {
      sims().wechat.faults.silentRefunds = false
    }
    expect((await order(m.token, orderNo)).state).toBe('refunding')
    await settleSimulators(t().app)
    await expectLedgerConsistent(db)
  })

  it('retries an automatic refund (money for a course owned meanwhile); its order stays refunding until it succeeds', async () => {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 3000 })
    const d = (
      await call<{ order_no: string }>('POST', '/api/pay/course', m.token, {
        course_id: course,
        pay_method: 'wechat_h5',
      })
    ).body.data
    await insertEntitlement(db, {
      memberId: m.id,
      courseId: course,
      source: 'admin',
      grantedAt: clock.now(),
      expiresAt: null,
    })
    sims().wechat.faults.refundError = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足' }
    let refundNo: string
    try {
      sims().wechat.pay(d.order_no)
      await settleSimulators(t().app)
      await until(async () =>
        (await db.select().from(refunds).where(eq(refunds.state, 'failed'))).some((r) => r.kind === 'automatic'),
      )
      refundNo = (
        await db
          .select()
          .from(refunds)
          .where(and(eq(refunds.kind, 'automatic'), eq(refunds.state, 'failed')))
      )[0]!.refundNo
    } finally {
      sims().wechat.faults.refundError = null
    }
    expect(await order(m.token, d.order_no)).toMatchObject({ state: 'refunding' })
    expect(await staffView(admin.token, refundNo)).toMatchObject({ kind: 'automatic', retryable: true })
    await expectLedgerConsistent(db)
    const retried = (await retry(admin.token, refundNo)).body
    expect(retried).toMatchObject({ code: 200, data: { state: 'processing' } })
    await until(async () => (await order(m.token, d.order_no)).state === 'refunded')
    await settleSimulators(t().app)
    const done = await order(m.token, d.order_no)
    expect(done.events.map((e) => [e.reason, e.to])).toEqual([
      ['created', 'pending'],
      ['paid_but_owned_refund', 'refunding'],
      ['refund_retried', 'refunding'],
      ['refund_succeeded', 'refunded'],
    ])
    expect(sims().wechat.trades.get(d.order_no)!.refunded).toBe(3000)
    await expectLedgerConsistent(db)
  })

  it('a member who asked again meanwhile: the old refund is not retried (493); the new request goes on', async () => {
    const { admin, m, orderNo, refundNo } = await refusedRefund()
    const again = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '请再退一次' }))
      .body
    expect(again.code).toBe(200)
    expect((await retry(admin.token, refundNo)).body.code).toBe(493)
    expect(await order(m.token, orderNo)).toMatchObject({ state: 'paid' })
    expect((await staffView(admin.token, refundNo)).state).toBe('failed')
    expect(
      (await call<Refund>('POST', `/api/admin/refunds/${again.data.refund_no}/approve`, admin.token, {})).body.data
        .state,
    ).toBe('processing')
    await until(async () => (await order(m.token, orderNo)).state === 'refunded')
    await settleSimulators(t().app)
    await expectLedgerConsistent(t().database.db)
  })
})

describe('refunds whose answer or notification never came (payment sweeps)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { res, body: res.json<ApiBody<T>>() }
  }

  const posts = () =>
    sims().wechat.requests.filter((r) => r.method === 'POST' && r.path === '/v3/refund/domestic/refunds').length
  const queries = (refundNo: string) =>
    sims().wechat.requests.filter((r) => r.method === 'GET' && r.path === `/v3/refund/domestic/refunds/${refundNo}`)
      .length

  async function approvedRefund() {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 5000 })
    const d = (
      await call<{ order_no: string }>('POST', '/api/pay/course', m.token, {
        course_id: course,
        pay_method: 'wechat_h5',
      })
    ).body.data
    sims().wechat.pay(d.order_no)
    await settleSimulators(t().app)
    const asked = (await call<Refund>('POST', '/api/refunds', m.token, { order_no: d.order_no, reason: '买错了' })).body
      .data
    const approved = (await call<Refund>('POST', `/api/admin/refunds/${asked.refund_no}/approve`, admin.token, {})).body
      .data
    return { admin, m, orderNo: d.order_no, refundNo: asked.refund_no, approved }
  }

  const orderState = async (token: string, orderNo: string) =>
    (await call<OrderDetail>('GET', `/api/orders/${orderNo}`, token)).body.data

  it('asks WeChat Pay (GET /v3/refund/domestic/refunds/{no}) about a refund whose answer was lost and completes it, refunding once', async () => {
    const db = t().database.db
    sims().wechat.faults.loseRefundAnswers = true
    sims().wechat.faults.silentRefunds = true
    let r: Awaited<ReturnType<typeof approvedRefund>>
    try {
      const before = posts()
      r = await approvedRefund()
      expect(posts()).toBe(before + 1)
      expect(r.approved.state).toBe('processing')
      await new Promise((resolve) => setTimeout(resolve, 120))
      // WeChat Pay refunded (its notification lost too); we only know the request timed out.
      expect(sims().wechat.refunds.get(r.refundNo)!.status).toBe('SUCCESS')
      expect((await orderState(r.m.token, r.orderNo)).state).toBe('refunding')
      const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, r.refundNo))
      expect(row!.lastError).toContain('HTTP 500')
      // Within a minute of the last attempt the sweep leaves it alone.
      await runPaymentSweeps(t().app.services)
      expect(queries(r.refundNo)).toBe(0)
      clock.advance(61_000)
      await runPaymentSweeps(t().app.services)
      expect(queries(r.refundNo)).toBe(1)
      expect(posts()).toBe(before + 1)
    } finally {
      sims().wechat.faults.loseRefundAnswers = false
      sims().wechat.faults.silentRefunds = false
      clock.reset()
    }
    const done = await orderState(r.m.token, r.orderNo)
    expect(done).toMatchObject({ state: 'refunded', refunded_fen: 5000 })
    expect(done.events.at(-1)).toMatchObject({ reason: 'refund_succeeded' })
    expect(sims().wechat.trades.get(r.orderNo)!.refunded).toBe(5000)
    await expectLedgerConsistent(db)
  })

  it('sends again, with the same number, a refund WeChat Pay never got', async () => {
    sims().wechat.faults.refundError = { status: 500, code: 'SYSTEM_ERROR', message: '系统繁忙' }
    let r: Awaited<ReturnType<typeof approvedRefund>>
    try {
      r = await approvedRefund()
    } finally {
      sims().wechat.faults.refundError = null
    }
    expect(r.approved.state).toBe('processing')
    expect(sims().wechat.refunds.has(r.refundNo)).toBe(false)
    clock.advance(61_000)
    try {
      await runPaymentSweeps(t().app.services)
    } finally {
      clock.reset()
    }
    expect(queries(r.refundNo)).toBe(1)
    expect(sims().wechat.refunds.get(r.refundNo)).toBeDefined()
    await settleSimulators(t().app)
    await new Promise((resolve) => setTimeout(resolve, 120))
    await settleSimulators(t().app)
    expect(await orderState(r.m.token, r.orderNo)).toMatchObject({ state: 'refunded', refunded_fen: 5000 })
    await expectLedgerConsistent(t().database.db)
  })

  it('marks failed a refund WeChat Pay reports ABNORMAL; a retry asks again with the same number and refunds nothing twice', async () => {
    sims().wechat.faults.refundOutcome = 'ABNORMAL'
    sims().wechat.faults.silentRefunds = true
    let r: Awaited<ReturnType<typeof approvedRefund>>
    try {
      r = await approvedRefund()
      await new Promise((resolve) => setTimeout(resolve, 120))
      clock.advance(61_000)
      await runPaymentSweeps(t().app.services)
    } finally {
      sims().wechat.faults.refundOutcome = 'SUCCESS'
      sims().wechat.faults.silentRefunds = false
      clock.reset()
    }
    const back = await orderState(r.m.token, r.orderNo)
    expect(back.state).toBe('paid')
    expect(back.events.at(-1)).toMatchObject({ reason: 'refund_failed', from: 'refunding', to: 'paid' })
    const retried = (await call<Refund>('POST', `/api/admin/refunds/${r.refundNo}/retry`, r.admin.token)).body
    // WeChat Pay answers the same refund, still ABNORMAL (it is settled on its merchant platform): failed again.
    expect(retried).toMatchObject({ code: 200, data: { state: 'failed' } })
    expect(sims().wechat.trades.get(r.orderNo)!.refunded).toBe(0)
    expect([...sims().wechat.refunds.values()].filter((x) => x.outTradeNo === r.orderNo)).toHaveLength(1)
    expect((await orderState(r.m.token, r.orderNo)).state).toBe('paid')
    await expectLedgerConsistent(t().database.db)
  })
})
