import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { members } from '#server/db/schema/members.ts'
import { orders } from '#server/db/schema/orders.ts'
import { makeMember } from '#tests/support/media-fixtures.ts'
import { expectLedgerConsistent, settleSimulators, useCommerceApp } from '#server/modules/payments/testing.ts'
import { api, makePlanAndTemplate, makeProgramme, offer, sign } from './testing.ts'

const DAY = 86_400_000

describe('tuition (issue 15 §3, §5)', () => {
  const { t, clock } = useCommerceApp()
  const call = api(() => t().app)
  const sims = () => t().app.paymentSimulators!

  async function enrolled(plan: object = {}, contract = true) {
    const db = t().database.db
    const { system, parts, staff } = await makeProgramme(db)
    const { planId, versionId } = await makePlanAndTemplate(call, staff.token, system, plan)
    const m = await makeMember(db)
    const [row] = await db.select({ phone: members.phone }).from(members).where(eq(members.id, m.id))
    const phone = row!.phone!
    const o = await offer(call, staff.token, phone, planId, contract ? versionId : null)
    return { m, phone, staff, system, parts, enrolmentId: o.enrolment_id, contractId: o.contract_id }
  }

  const canWatch = async (token: string, courseId: number) =>
    (await call<{ mode: string }>('GET', `/api/course/access?course_id=${courseId}`, token)).data

  async function pay(token: string, enrolmentId: number, paymentId?: number) {
    const r = await call<{ order_no: string }>('POST', '/api/pay/tuition', token, {
      enrolment_id: enrolmentId,
      pay_method: 'wechat_h5',
      ...(paymentId && { payment_id: paymentId }),
    })
    expect(r.code, r.msg).toBe(200)
    sims().wechat.pay(r.data.order_no)
    await settleSimulators(t().app)
    return r.data.order_no
  }

  it('refuses paying before the contract is signed when the plan asks for one', async () => {
    const e = await enrolled()
    const r = await call('POST', '/api/pay/tuition', e.m.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(r.code).toBe(570)
    // Someone else's enrolment is not found.
    const other = await makeMember(t().database.db)
    const theirs = await call('POST', '/api/pay/tuition', other.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    expect(theirs.code).toBe(404)
  })

  it('the deposit opens every course of the programme; the schedule shows paid and due in fen; the balance completes it', async () => {
    const e = await enrolled()
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).not.toBe('full')
    expect((await sign(() => t().app, call, e.m.token, e.phone, e.contractId!)).code).toBe(200)
    const orderNo = await pay(e.m.token, e.enrolmentId)
    const [order] = await t().database.db.select().from(orders).where(eq(orders.orderNo, orderNo))
    expect(order).toMatchObject({ kind: 'tuition', state: 'paid', amountFen: 50000 })
    for (const part of e.parts) expect((await canWatch(e.m.token, part)).mode).toBe('full')
    const mine = await call<{
      list: { state: string; paid_fen: number; schedule: { status: string; amount_fen: number }[] }[]
    }>('GET', '/api/tuition', e.m.token)
    expect(mine.data.list[0]).toMatchObject({
      state: 'paying',
      paid_fen: 50000,
      schedule: [
        { status: 'paid', amount_fen: 50000 },
        { status: 'due', amount_fen: 250000 },
      ],
    })
    const ke3 = await call<{ list: { id: number }[] }>('GET', '/api/center/system_courses', e.m.token)
    expect(ke3.data.list.map((c) => c.id)).toContain(e.system)
    await pay(e.m.token, e.enrolmentId)
    expect((await call('GET', `/api/course/bs?id=${e.system}`, e.m.token)).data).toMatchObject({
      status: 'enrolled',
      next_payment: null,
    })
    expect(
      (await call('POST', '/api/pay/tuition', e.m.token, { enrolment_id: e.enrolmentId, pay_method: 'wechat_h5' }))
        .code,
    ).toBe(572)
    const events = await t().database.db.execute<{ to_state: string; reason: string }>(
      sql`select to_state, reason from enrolment_events where enrolment_id = ${e.enrolmentId} order by id`,
    )
    expect(events.rows.map((r) => `${r.reason}:${r.to_state}`)).toEqual([
      'offered:offered',
      'contract_signed:signed',
      'paid:paying',
      'paid:enrolled',
    ])
    await expectLedgerConsistent(t().database.db)
  })

  it('a plan without a contract is paid at once; N monthly instalments sum to the tuition exactly', async () => {
    const e = await enrolled(
      { kind: 'instalments', instalments: 3, total_fen: 100000, contract_required: false },
      false,
    )
    const mine = await call<{ list: { schedule: { amount_fen: number; due_at: string | null }[] }[] }>(
      'GET',
      '/api/tuition',
      e.m.token,
    )
    const schedule = mine.data.list[0]!.schedule
    expect(schedule.map((p) => p.amount_fen)).toEqual([33334, 33333, 33333])
    expect(schedule[0]!.due_at).toBeNull()
    await pay(e.m.token, e.enrolmentId)
    expect((await canWatch(e.m.token, e.parts[1]!)).mode).toBe('full')
  })

  it('20 POST /pay/tuition for the same instalment at once: one order', async () => {
    const e = await enrolled()
    await sign(() => t().app, call, e.m.token, e.phone, e.contractId!)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call<{ order_no: string }>('POST', '/api/pay/tuition', e.m.token, {
          enrolment_id: e.enrolmentId,
          pay_method: 'wechat_h5',
        }),
      ),
    )
    expect(answers.map((a) => a.code)).toEqual(Array(20).fill(200))
    expect(new Set(answers.map((a) => a.data.order_no)).size).toBe(1)
    const rows = await t().database.db.select().from(orders).where(eq(orders.memberId, e.m.id))
    expect(rows).toHaveLength(1)
  })

  it('20 duplicate payment notifications at once: one payment, one grant, one schedule entry paid', async () => {
    const e = await enrolled()
    await sign(() => t().app, call, e.m.token, e.phone, e.contractId!)
    const r = await call<{ order_no: string }>('POST', '/api/pay/tuition', e.m.token, {
      enrolment_id: e.enrolmentId,
      pay_method: 'wechat_h5',
    })
    const trade = sims().wechat.trades.get(r.data.order_no)!
    trade.state = 'SUCCESS'
    trade.transactionId = `4200${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`
    trade.successTime = clock.now()
    const n = sims().wechat.paymentNotification(trade)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t().app.inject({ method: 'POST', url: '/api/pay/notify/wechat', headers: n.headers, payload: n.body }),
      ),
    )
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(204))
    const grants = await t().database.db.select().from(entitlements).where(eq(entitlements.memberId, e.m.id))
    expect(grants).toHaveLength(1)
    expect(grants[0]).toMatchObject({ source: 'tuition', courseId: e.system, sourceRef: `enrolment:${e.enrolmentId}` })
    const paid = await t().database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from enrolment_events where enrolment_id = ${e.enrolmentId} and reason = 'paid'`,
    )
    expect(paid.rows[0]!.n).toBe(1)
    await expectLedgerConsistent(t().database.db)
  })

  it('a payment overdue past the grace period pauses access until paid; staff extend a due date with who and why', async () => {
    // The balance is due 2 days after the offer; 7 days of grace (sessions last 30 days: the clock stays within).
    const e = await enrolled({ balance_due_days: 2 })
    await sign(() => t().app, call, e.m.token, e.phone, e.contractId!)
    await pay(e.m.token, e.enrolmentId)
    const sweep = () => t().app.services.pauseOverdueTuition()
    clock.advance(8 * DAY)
    expect(await sweep()).toBe(0)
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).toBe('full')
    clock.advance(2 * DAY)
    expect(await sweep()).toBe(1)
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).not.toBe('full')
    const grant = await t().database.db.select().from(entitlements).where(eq(entitlements.memberId, e.m.id))
    expect(grant[0]!.revokedAt).toBeNull()
    expect((await call('GET', `/api/course/bs?id=${e.system}`, e.m.token)).data).toMatchObject({ status: 'overdue' })

    // Staff move the date: access reopens, the log says who and why.
    const mine = await call<{ list: { schedule: { id: number }[] }[] }>('GET', '/api/tuition', e.m.token)
    const balance = mine.data.list[0]!.schedule[1]!.id
    // Staff sign-ins last 12 hours: one signed in now.
    const staff = await makeMember(t().database.db, 'staff', clock.now())
    const ext = await call('POST', `/api/admin/tuition-payments/${balance}/extend`, staff.token, {
      due_at: new Date(clock.now().getTime() + 5 * DAY).toISOString(),
      reason: '学员申请延期两周',
    })
    expect(ext.code, ext.msg).toBe(200)
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).toBe('full')
    const log = await t().database.db.execute<{
      reason: string
      actor: string
      data: { reason: string; staff_id: number }
    }>(
      sql`select reason, actor, data from enrolment_events where enrolment_id = ${e.enrolmentId} and reason = 'due_extended'`,
    )
    expect(log.rows[0]).toMatchObject({
      actor: `admin:${staff.id}`,
      data: { reason: '学员申请延期两周', staff_id: staff.id },
    })

    // Overdue again past the new date and grace; paying it reopens access.
    clock.advance(13 * DAY)
    expect(await sweep()).toBe(1)
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).not.toBe('full')
    await pay(e.m.token, e.enrolmentId)
    expect((await canWatch(e.m.token, e.parts[0]!)).mode).toBe('full')
    expect((await call('GET', `/api/course/bs?id=${e.system}`, e.m.token)).data).toMatchObject({ status: 'enrolled' })
    clock.reset()
  })
})
