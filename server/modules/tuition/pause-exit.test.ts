import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { orders } from '#server/db/schema/orders.ts'
import { refunds } from '#server/db/schema/refunds.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { expectLedgerConsistent, settleSimulators, useCommerceApp, until } from '#server/modules/payments/testing.ts'
import { api, makePlanAndTemplate, makeProgramme, offer } from './testing.ts'
import { exitRefundFen } from './tuition-rules.ts'

const DAY = 86_400_000
const HOUR = 3_600_000

describe('exit refund rule (pure): the unused share of what was paid less the fee, never more than paid', () => {
  it.each([
    ['paid in full, a quarter used', { paidFen: 360000, studyDays: 36, usedDays: 9, exitFeeFen: 10000 }, 260000],
    ['half paid, a quarter used', { paidFen: 180000, studyDays: 36, usedDays: 9, exitFeeFen: 10000 }, 125000],
    ['nothing used, no fee: all of it', { paidFen: 99999, studyDays: 30, usedDays: 0, exitFeeFen: 0 }, 99999],
    ['all used', { paidFen: 360000, studyDays: 36, usedDays: 40, exitFeeFen: 0 }, 0],
    ['fee larger than the share', { paidFen: 1000, studyDays: 10, usedDays: 9, exitFeeFen: 500 }, 0],
    ['rounds down to the fen', { paidFen: 100, studyDays: 3, usedDays: 1, exitFeeFen: 0 }, 66],
  ])('%s', (_name, facts, fen) => {
    expect(exitRefundFen(facts)).toBe(fen)
  })
})

describe('pause and exit (issue 15 §4)', () => {
  const { t, clock } = useCommerceApp()
  const call = api(() => t().app)
  const sims = () => t().app.paymentSimulators!

  /** An enrolment without a contract (the contract tests cover signing), paid as far as `pays` payments. */
  async function paid(plan: object, pays = 1) {
    const db = t().database.db
    const { system, parts, staff } = await makeProgramme(db)
    const { planId } = await makePlanAndTemplate(call, staff.token, system, {
      contract_required: false,
      study_days: 36,
      exit_fee_fen: 10000,
      total_fen: 360000,
      ...plan,
    })
    const m = await makeMember(db, 'member', clock.now())
    const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, m.id))
    const o = await offer(call, staff.token, row!.phone!, planId, null)
    for (let i = 0; i < pays; i++) {
      const r = await call<{ order_no: string }>('POST', '/api/pay/tuition', m.token, {
        enrolment_id: o.enrolment_id,
        pay_method: 'wechat_h5',
      })
      sims().wechat.pay(r.data.order_no)
      await settleSimulators(t().app)
    }
    return { m, system, parts, enrolmentId: o.enrolment_id }
  }

  const quote = async (token: string, id: number) =>
    (
      await call<{ refund_fen: number; used_days: number; paid_fen: number }>(
        'GET',
        `/api/course/exit?enrolment_id=${id}`,
        token,
      )
    ).data
  const watches = async (token: string, courseId: number) =>
    (await call<{ mode: string }>('GET', `/api/course/access?course_id=${courseId}`, token)).data.mode === 'full'

  it('exit amounts: paid in full and half paid, a quarter of the programme used', async () => {
    const full = await paid({ kind: 'full' })
    const half = await paid({ kind: 'deposit', deposit_fen: 180000 })
    clock.advance(9 * DAY - HOUR)
    expect(await quote(full.m.token, full.enrolmentId)).toMatchObject({
      paid_fen: 360000,
      used_days: 9,
      refund_fen: 260000,
    })
    expect(await quote(half.m.token, half.enrolmentId)).toMatchObject({
      paid_fen: 180000,
      used_days: 9,
      refund_fen: 125000,
    })
    clock.reset()
  })

  it('an instalment in flight is not counted, and cannot be paid once exit is asked for', async () => {
    const e = await paid({ kind: 'instalments', instalments: 3 })
    const inFlight = await call<{ order_no: string }>('POST', '/api/pay/tuition', e.m.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(inFlight.code).toBe(200)
    clock.advance(9 * DAY - HOUR)
    const q = await quote(e.m.token, e.enrolmentId)
    expect(q).toMatchObject({ paid_fen: 120000, refund_fen: 80000 })
    expect(
      (await call('POST', '/api/course/exit', e.m.token, { enrolment_id: e.enrolmentId, refund_fen: 1 })).code,
    ).toBe(409)
    expect(
      (await call('POST', '/api/course/exit', e.m.token, { enrolment_id: e.enrolmentId, refund_fen: 80000 })).code,
    ).toBe(200)
    const again = await call('POST', '/api/pay/tuition', e.m.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(again.code).toBe(573)
    clock.reset()
  })

  it('pause within the limit: access pauses, resuming early moves the expiry by the days paused; exit after a pause', async () => {
    const e = await paid({ kind: 'full', max_pause_days: 10 })
    expect((await call('POST', '/api/course/pause', e.m.token, { enrolment_id: e.enrolmentId, days: 11 })).code).toBe(
      574,
    )
    clock.advance(4 * DAY - HOUR)
    const before = (await call<{ list: { expires_at: string }[] }>('GET', '/api/tuition', e.m.token)).data.list[0]!
      .expires_at
    expect((await call('POST', '/api/course/pause', e.m.token, { enrolment_id: e.enrolmentId, days: 10 })).code).toBe(
      200,
    )
    expect(await watches(e.m.token, e.parts[0]!)).toBe(false)
    expect((await call('GET', `/api/course/bs?id=${e.system}`, e.m.token)).data).toMatchObject({ status: 'paused' })
    clock.advance(5 * DAY - HOUR)
    const resumed = await call<{ expires_at: string }>('POST', '/api/course/resume', e.m.token, {
      enrolment_id: e.enrolmentId,
    })
    expect(resumed.code).toBe(200)
    expect(new Date(resumed.data.expires_at).getTime() - new Date(before).getTime()).toBe(5 * DAY)
    expect(await watches(e.m.token, e.parts[0]!)).toBe(true)
    clock.advance(2 * DAY - HOUR)
    // 11 days since the start, 5 of them paused: 6 used of 36.
    expect(await quote(e.m.token, e.enrolmentId)).toMatchObject({ used_days: 6, refund_fen: 290000 })
    clock.reset()
  })

  it('staff approve an exit: access ends, the money goes back through the refund path, every step in the log', async () => {
    const e = await paid({ kind: 'full' })
    clock.advance(9 * DAY - HOUR)
    expect(
      (await call('POST', '/api/course/exit', e.m.token, { enrolment_id: e.enrolmentId, refund_fen: 260000 })).code,
    ).toBe(200)
    const operator = await makeMember(t().database.db, 'staff', clock.now())
    const refused = await call('POST', `/api/admin/enrolments/${e.enrolmentId}/exit/approve`, operator.token)
    expect(refused.code).toBe(403)
    const finance = await makeMember(t().database.db, ['finance'], clock.now())
    const approved = await call<{ refunds: { amount_fen: number }[] }>(
      'POST',
      `/api/admin/enrolments/${e.enrolmentId}/exit/approve`,
      finance.token,
    )
    expect(approved.code, approved.msg).toBe(200)
    expect(approved.data.refunds.map((r) => r.amount_fen)).toEqual([260000])
    expect(await watches(e.m.token, e.parts[0]!)).toBe(false)
    await until(async () => {
      const rows = await t().database.db.select().from(refunds).where(eq(refunds.memberId, e.m.id))
      return rows.length === 1 && rows[0]!.state === 'succeeded'
    })
    const log = await t().database.db.execute<{ reason: string; to_state: string }>(
      sql`select reason, to_state from enrolment_events where enrolment_id = ${e.enrolmentId} order by id`,
    )
    expect(log.rows.map((r) => `${r.reason}:${r.to_state}`)).toEqual([
      'offered:offered',
      'paid:enrolled',
      'exit_requested:enrolled',
      'exited:exited',
    ])
    expect((await call('GET', `/api/course/bs?id=${e.system}`, e.m.token)).data).toMatchObject({ status: 'exited' })
    await expectLedgerConsistent(t().database.db)
    clock.reset()
  })

  // Exit closes the pending orders of the enrolment (issue 15 §4): none can be paid after, and a payment racing the
  // exit either wins (the exit is told the amount changed) or goes back.
  const notifyWechat = (n: { headers: Record<string, string>; body: string }) =>
    t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body })
  const orderRow = async (orderNo: string) =>
    (await t().database.db.select().from(orders).where(eq(orders.orderNo, orderNo)))[0]!
  const dueCount = async (enrolmentId: number) =>
    (
      await t().database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from tuition_payments where enrolment_id = ${enrolmentId} and state = 'due'`,
      )
    ).rows[0]!.n
  const pendingTuition = async (memberId: number) =>
    (
      await t().database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from orders where member_id = ${memberId} and kind = 'tuition' and state = 'pending'`,
      )
    ).rows[0]!.n
  async function inFlight(token: string, enrolmentId: number) {
    const r = await call<{ order_no: string }>('POST', '/api/pay/tuition', token, {
      enrolment_id: enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(r.code, r.msg).toBe(200)
    return r.data.order_no
  }
  /** The money of a trade taken at the provider (before our close reached it), and its notification sent. */
  function paidAtProvider(orderNo: string) {
    const trade = sims().wechat.trades.get(orderNo)!
    trade.state = 'SUCCESS'
    trade.transactionId = `42000000000000000${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`
    return notifyWechat(sims().wechat.paymentNotification(trade))
  }

  it('asking to exit closes the pending instalment order, at the provider too; a late payment of it goes back', async () => {
    const e = await paid({ kind: 'instalments', instalments: 3 })
    const orderNo = await inFlight(e.m.token, e.enrolmentId)
    const q = await quote(e.m.token, e.enrolmentId)
    const exit = await call('POST', '/api/course/exit', e.m.token, {
      enrolment_id: e.enrolmentId,
      refund_fen: q.refund_fen,
    })
    expect(exit.code, exit.msg).toBe(200)
    expect(await orderRow(orderNo)).toMatchObject({ state: 'closed' })
    const closedEvent = await t().database.db.execute<{ reason: string; actor: string }>(
      sql`select e.reason, e.actor from order_events e join orders o on o.id = e.order_id
          where o.order_no = ${orderNo} order by e.id desc limit 1`,
    )
    expect(closedEvent.rows[0]).toEqual({ reason: 'enrolment_exit', actor: `member:${e.m.id}` })
    // The provider was told: its cashier no longer takes the money.
    expect(sims().wechat.trades.get(orderNo)!.state).toBe('CLOSED')
    expect(() => sims().wechat.pay(orderNo)).toThrow(/CLOSED/)
    const again = await call('POST', '/api/pay/tuition', e.m.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(again).toMatchObject({ code: 573, msg: '已申请退学，不能再缴纳学费' })
    // Money that reached the provider before the close goes back; the instalment stays unpaid, the quote unchanged.
    expect((await paidAtProvider(orderNo)).statusCode).toBe(204)
    expect(await orderRow(orderNo)).toMatchObject({ state: 'refunding' })
    await until(async () => (await orderRow(orderNo)).state === 'refunded')
    expect(await dueCount(e.enrolmentId)).toBe(2)
    const log = await t().database.db.execute<{ reason: string }>(
      sql`select reason from enrolment_events where enrolment_id = ${e.enrolmentId} order by id`,
    )
    expect(log.rows.map((r) => r.reason)).toEqual(['offered', 'paid', 'exit_requested'])
    await settleSimulators(t().app)
    await expectLedgerConsistent(t().database.db)
  })

  it('paying while exiting (real PostgreSQL, at once): either the payment wins and the exit is told, or it goes back', async () => {
    const cases = await Promise.all([1, 2, 3, 4, 5, 6].map(() => paid({ kind: 'instalments', instalments: 3 })))
    const runs = await Promise.all(
      cases.map(async (e) => {
        const orderNo = await inFlight(e.m.token, e.enrolmentId)
        const q = await quote(e.m.token, e.enrolmentId)
        const [exit, notified] = await Promise.all([
          call('POST', '/api/course/exit', e.m.token, { enrolment_id: e.enrolmentId, refund_fen: q.refund_fen }),
          paidAtProvider(orderNo),
        ])
        return { e, orderNo, exit, notified: notified.statusCode }
      }),
    )
    await settleSimulators(t().app)
    for (const r of runs) {
      expect(r.notified).toBe(204)
      expect([200, 409], r.exit.msg).toContain(r.exit.code)
      const order = await orderRow(r.orderNo)
      if (r.exit.code === 200) {
        // The exit closed the order first: the instalment is still due, its money goes back.
        expect(['refunding', 'refunded']).toContain(order.state)
        expect(await dueCount(r.e.enrolmentId)).toBe(2)
      } else {
        // The payment won: it is counted, and the member sees a new amount to confirm.
        expect(order.state).toBe('paid')
        expect(await dueCount(r.e.enrolmentId)).toBe(1)
        expect(r.exit.msg).toBe('可退金额已变化，请刷新后重新确认')
      }
    }
    await until(async () => {
      for (const r of runs) if ((await orderRow(r.orderNo)).state === 'refunding') return false
      return true
    })
    await expectLedgerConsistent(t().database.db)
  })

  it('checking out while exiting, at once: no tuition order is left open to pay', async () => {
    const cases = await Promise.all([1, 2, 3, 4, 5, 6].map(() => paid({ kind: 'instalments', instalments: 3 })))
    const runs = await Promise.all(
      cases.map(async (e) => {
        const q = await quote(e.m.token, e.enrolmentId)
        const [exit, pay] = await Promise.all([
          call('POST', '/api/course/exit', e.m.token, { enrolment_id: e.enrolmentId, refund_fen: q.refund_fen }),
          call<{ order_no?: string }>('POST', '/api/pay/tuition', e.m.token, {
            enrolment_id: e.enrolmentId,
            pay_method: 'wechat_h5',
          }),
        ])
        return { e, exit, pay }
      }),
    )
    for (const r of runs) {
      expect(r.exit.code, r.exit.msg).toBe(200)
      expect([200, 573], r.pay.msg).toContain(r.pay.code)
      expect(await pendingTuition(r.e.m.id)).toBe(0)
      if (r.pay.code === 200) expect((await orderRow(r.pay.data.order_no!)).state).toBe('closed')
    }
  })
})
