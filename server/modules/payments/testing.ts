import { stepUpHeaders } from '#tests/support/staff.ts'
import type { FastifyInstance } from 'fastify'
import { eq, sql } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Env } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import { members } from '#server/db/schema/members.ts'
import { testClock } from '#server/modules/auth/testing.ts'
import { useTestApp, type TestApp } from '#tests/support/app.ts'
import { injectFetch } from '#tests/support/inject-fetch.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

/**
 * The API on a fresh database with a movable clock, the payment simulators mounted in process and every
 * payment call (adapter → simulator → notify URL) routed through `app.inject`.
 */
export function useCommerceApp(env: Partial<Env> = {}) {
  const clock = testClock()
  const holder: { t?: () => { app: FastifyInstance } } = {}
  const t = useTestApp(
    { PAYMENT_SWEEPS: 'false', ...env },
    { integrations: { now: clock.now, paymentsFetch: injectFetch(() => holder.t!().app) } },
  )
  holder.t = t
  return { t, clock }
}

export interface ApiBody<T = Record<string, unknown>> {
  code: number
  msg: string
  data: T
}

/** The sign-in header, and a step-up proof (tests/support/staff.ts) for staff calls that need one. */
export function headersOf(token: string, extra: Record<string, string> = {}) {
  return { 'zxb-token': token, ...stepUpHeaders(token), ...extra }
}

export async function setOpenid(db: Db, memberId: number, openid: string) {
  await db.update(members).set({ wxOpenid: openid }).where(eq(members.id, memberId))
}

/** Waits until the simulators have nothing in flight or waiting for a retry. */
export async function settleSimulators(app: FastifyInstance) {
  await app.paymentSimulators?.wechat.notifier.idle()
  await app.paymentSimulators?.alipay.notifier.idle()
}

/**
 * A member who bought a course (with one 10-minute video) and paid it through a provider notification: WeChat
 * Pay H5 unless `payMethod` says otherwise (alipay_wap visits the cashier first, as a phone would).
 */
export async function paidCourse(t: () => TestApp, opts: { priceFen?: number; payMethod?: string } = {}) {
  const { app, database } = t()
  const m = await makeMember(database.db)
  const course = await makeCourse(database.db, { priceFen: opts.priceFen ?? 10000 })
  const video = await makeVideo(database.db, course, { durationSeconds: 600 })
  const payMethod = opts.payMethod ?? 'wechat_h5'
  const res = await app.inject({
    method: 'POST',
    url: '/api/pay/course',
    headers: headersOf(m.token),
    payload: { course_id: course, pay_method: payMethod },
  })
  const d = res.json<ApiBody<{ order_no: string; redirect_url: string | null }>>().data
  if (payMethod === 'alipay_wap') {
    const url = new URL(d.redirect_url!)
    await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })
    app.paymentSimulators!.alipay.pay(d.order_no)
  } else {
    app.paymentSimulators!.wechat.pay(d.order_no)
  }
  await settleSimulators(app)
  return { m, course, video, orderNo: d.order_no }
}

/**
 * The ledger check run after the money tests: every order holds exactly the grants its state calls for, no
 * order was paid twice, refunds never exceed what was paid, cached refunded amounts match the refunds, points
 * balances are the sum of their entries and never negative, coupons are held only by the orders they should be,
 * and every order's price adds up.
 */
export async function ledgerProblems(db: Db, fenPerPoint = 1) {
  const problems: string[] = []
  const grants = await db.execute<{ order_no: string; state: string; items: number; active: number }>(sql`
    select o.order_no, o.state,
      -- Courses of the order, less those the member owned already when it was paid (their share went back).
      (select count(*) from order_items i where i.order_id = o.id and i.course_id is not null
        and not exists (select 1 from order_events ev where ev.order_id = o.id and ev.reason = 'owned_courses_refund'
          and ev.data->'courses' @> to_jsonb(i.course_id))
        -- Less the lines a per-course refund took back.
        and not exists (select 1 from refund_lines l join refunds r on r.id = l.refund_id
          where l.order_item_id = i.id and r.state = 'succeeded'))::int as items,
      (select count(*) from entitlements e where e.source = 'purchase' and e.source_ref = o.order_no and e.revoked_at is null)::int as active
    from orders o`)
  for (const r of grants.rows) {
    const expected =
      ['paid', 'partially_refunded'].includes(r.state) || (r.state === 'refunding' && r.active > 0) ? r.items : 0
    if (r.active !== expected)
      problems.push(`${r.order_no} (${r.state}) has ${r.active} active grants, expected ${expected}`)
  }
  // Paid means from pending or closed; refunding → paid is a refund that failed, not a payment.
  const paidTwice = await db.execute<{ order_id: number; n: number }>(sql`
    select order_id, count(*)::int as n from order_events where to_state = 'paid' and from_state in ('pending', 'closed') group by order_id having count(*) > 1`)
  for (const r of paidTwice.rows) problems.push(`order ${r.order_id} became paid ${r.n} times`)
  const dupes = await db.execute<{ member_id: number; course_id: number; n: number }>(sql`
    select member_id, course_id, count(*)::int as n from entitlements
    where source = 'purchase' and revoked_at is null group by member_id, course_id having count(*) > 1`)
  for (const r of dupes.rows) problems.push(`member ${r.member_id} holds course ${r.course_id} from ${r.n} purchases`)
  const refunds = await db.execute<{
    order_no: string
    amount_fen: number
    refunded_fen: number
    succeeded: number
  }>(sql`
    select o.order_no, o.amount_fen, o.refunded_fen,
      coalesce((select sum(r.amount_fen) from refunds r where r.order_id = o.id and r.state = 'succeeded' and r.moves_order), 0)::int as succeeded
    from orders o`)
  for (const r of refunds.rows) {
    if (r.refunded_fen !== r.succeeded)
      problems.push(`${r.order_no} refunded_fen ${r.refunded_fen} but refunds add up to ${r.succeeded}`)
    if (r.succeeded > r.amount_fen) problems.push(`${r.order_no} refunded more than paid`)
  }
  const points = await db.execute<{ member_id: number; balance: number; total: number }>(sql`
    select b.member_id, b.balance, coalesce((select sum(e.delta) from point_entries e where e.member_id = b.member_id), 0)::int as total
    from point_balances b`)
  for (const r of points.rows) {
    if (r.balance !== r.total)
      problems.push(`member ${r.member_id} points balance ${r.balance} but entries add up to ${r.total}`)
    if (r.balance < 0) problems.push(`member ${r.member_id} has a negative points balance`)
  }
  const coupons = await db.execute<{ id: number; state: string; order_state: string | null }>(sql`
    select c.id, c.state, o.state as order_state from member_coupons c left join orders o on o.id = c.order_id`)
  for (const c of coupons.rows) {
    const ok =
      (c.state === 'available' && c.order_state === null) ||
      (c.state === 'reserved' && c.order_state === 'pending') ||
      (c.state === 'used' && ['paid', 'partially_refunded', 'refunding'].includes(c.order_state ?? ''))
    if (!ok) problems.push(`coupon ${c.id} is ${c.state} with its order ${c.order_state ?? 'none'}`)
  }
  const prices = await db.execute<{ order_no: string }>(sql`
    select order_no from orders
    where amount_fen + discount_fen + points_used * ${fenPerPoint} <> original_fen
      -- A course bought for its points price has no money price: nothing paid, nothing discounted.
      and not (pay_method = 'points' and original_fen = 0 and amount_fen = 0 and discount_fen = 0 and points_used > 0)`)
  for (const r of prices.rows) problems.push(`${r.order_no}: amount + discount + points ≠ original price`)
  return problems
}

export async function expectLedgerConsistent(db: Db) {
  expect(await ledgerProblems(db)).toEqual([])
}

/** Waits (every 20 ms, at most 5 s) until `check` holds: for what happens after an answer (a refund sent after commit). */
export async function until(check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}
