import { describe, expect, it } from 'vitest'
import { members } from '#server/db/schema/members.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { videoMedia } from '#server/db/schema/media.ts'
import { orders } from '#server/db/schema/orders.ts'
import { pointEntries } from '#server/db/schema/points.ts'
import { refunds } from '#server/db/schema/refunds.ts'
import { staffActions } from '#server/db/schema/audit.ts'
import { makeReady } from '#server/modules/learning/testing.ts'
import {
  headersOf,
  paidCourse,
  settleSimulators,
  until,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'
import type { Dashboard } from './dashboard.schema.ts'

const DAY_MS = 24 * 3600 * 1000

/** The Beijing calendar day of an instant, computed here with Intl (the service uses SQL). */
const dayOf = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(at)
    .slice(0, 10)

describe('GET /api/admin/dashboard', () => {
  const { t, clock } = useCommerceApp()

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return { status: res.statusCode, body: res.json<ApiBody<T>>() }
  }

  it('answers 301 without a session and 403 to a member', async () => {
    const member = await makeMember(t().database.db)
    expect((await t().app.inject({ method: 'GET', url: '/api/admin/dashboard' })).json()).toMatchObject({ code: 301 })
    expect((await call('GET', '/api/admin/dashboard', member.token)).status).toBe(403)
  })

  it('equals the sums of the orders, refunds, ledgers and progress computed independently', async () => {
    const { db } = t().database
    const admin = await makeMember(db, 'admin')

    // 40 days ago (outside both periods) and 3 days ago (inside the 30 days only): paid through the simulators.
    clock.set(new Date(Date.now() - 40 * DAY_MS))
    await paidCourse(t, { priceFen: 7000 })
    clock.set(new Date(Date.now() - 3 * DAY_MS))
    const earlier = await paidCourse(t, { priceFen: 5000, payMethod: 'alipay_wap' })
    clock.reset()

    // Today: two payments by two methods, one refunded in full, one refund waiting, a points adjustment.
    const wechat = await paidCourse(t, { priceFen: 12000 })
    const alipay = await paidCourse(t, { priceFen: 9900, payMethod: 'alipay_wap' })
    const refunded = await paidCourse(t, { priceFen: 3000 })
    const asked = await call<{ refund_no: string }>('POST', '/api/refunds', refunded.m.token, {
      order_no: refunded.orderNo,
      reason: '买错了课程',
    })
    await call('POST', `/api/admin/refunds/${asked.body.data.refund_no}/approve`, admin.token, { note: '同意' })
    await settleSimulators(t().app)
    await until(async () => (await db.select().from(refunds)).some((r) => r.state === 'succeeded'))
    const waiting = await call('POST', '/api/refunds', alipay.m.token, { order_no: alipay.orderNo, reason: '不想学了' })
    expect(waiting.body.code).toBe(200)
    const adjusted = await t().app.inject({
      method: 'POST',
      url: '/api/admin/points/adjust',
      headers: headersOf(admin.token, { 'idempotency-key': 'dashboard-test-1' }),
      payload: { member_id: wechat.m.id, delta: 300, note: '活动奖励' },
    })
    expect(adjusted.json<ApiBody>().code).toBe(200)

    // Watching: two members save progress today.
    for (const p of [wechat, earlier]) {
      await makeReady(db, p.video, 600)
      const saved = await t().app.inject({
        method: 'POST',
        url: '/api/update_play_data',
        headers: headersOf(p.m.token),
        payload: { vid: String(p.video), position: '30' },
      })
      expect(saved.json<ApiBody>().code).toBe(200)
    }
    // A transcode that failed.
    const broken = await makeVideo(db, await makeCourse(db), { title: '坏掉的视频' })
    await db.insert(videoMedia).values({ videoId: broken, status: 'failed', error: 'ffmpeg exited with 1' })

    const res = await call<Dashboard>('GET', '/api/admin/dashboard', admin.token)
    expect(res.body.code).toBe(200)
    const d = res.body.data

    // Independently: every row of each table, bucketed by Beijing day in JavaScript.
    const today = dayOf(new Date())
    const days = new Set(Array.from({ length: 30 }, (_, i) => dayOf(new Date(Date.now() - i * DAY_MS))))
    const [allOrders, allRefunds, allPoints, allMembers, allProgress] = await Promise.all([
      db.select().from(orders),
      db.select().from(refunds),
      db.select().from(pointEntries),
      db.select().from(members),
      db.select().from(studyProgress),
    ])
    const expectPeriod = (inPeriod: (at: Date | null) => boolean) => {
      const paid = allOrders.filter((o) => inPeriod(o.paidAt))
      const back = allRefunds.filter((r) => r.state === 'succeeded' && inPeriod(r.completedAt))
      const revenue = paid.reduce((n, o) => n + o.amountFen, 0)
      const returned = back.reduce((n, r) => n + r.amountFen, 0)
      const by = (key: (o: (typeof paid)[number]) => string) => {
        const m = new Map<string, { fen: number; orders: number }>()
        for (const o of paid) {
          const s = m.get(key(o)) ?? { fen: 0, orders: 0 }
          m.set(key(o), { fen: s.fen + o.amountFen, orders: s.orders + 1 })
        }
        return Object.fromEntries(m)
      }
      const watched = allProgress.filter((p) => inPeriod(p.updatedAt))
      const points = allPoints.filter((p) => inPeriod(p.createdAt))
      return {
        revenue_fen: revenue,
        paid_orders: paid.length,
        refunds_fen: returned,
        refunds: back.length,
        net_fen: revenue - returned,
        by_kind: by((o) => o.kind),
        by_pay_method: by((o) => o.payMethod),
        new_members: allMembers.filter((m) => inPeriod(m.createdAt)).length,
        active_learners: new Set(watched.map((p) => p.memberId)).size,
        plays: watched.length,
        points_given: points.filter((p) => p.delta > 0).reduce((n, p) => n + p.delta, 0),
        points_taken: points.filter((p) => p.delta < 0).reduce((n, p) => n - p.delta, 0),
      }
    }
    const shown = (p: Dashboard['today']) => ({
      ...p,
      by_kind: Object.fromEntries(p.by_kind!.map(({ key, ...s }) => [key, s])),
      by_pay_method: Object.fromEntries(p.by_pay_method!.map(({ key, ...s }) => [key, s])),
      from: undefined,
    })
    const todayExpected = expectPeriod((at) => at !== null && dayOf(at) === today)
    const monthExpected = expectPeriod((at) => at !== null && days.has(dayOf(at)))
    expect(shown(d.today)).toEqual({ ...todayExpected, from: undefined })
    expect(shown(d.last_30_days)).toEqual({ ...monthExpected, from: undefined })

    // The figures are the ones this test made (so the comparison above cannot pass on empty tables).
    expect(d.today).toMatchObject({ revenue_fen: 12000 + 9900 + 3000, paid_orders: 3, refunds_fen: 3000, refunds: 1 })
    expect(d.today.by_pay_method).toEqual(
      expect.arrayContaining([
        { key: 'wechat_h5', fen: 15000, orders: 2 },
        { key: 'alipay_wap', fen: 9900, orders: 1 },
      ]),
    )
    expect(d.last_30_days).toMatchObject({ revenue_fen: 12000 + 9900 + 3000 + 5000, paid_orders: 4 })
    expect(d.today).toMatchObject({ active_learners: 2, plays: 2 })
    expect(d.today.points_given).toBeGreaterThanOrEqual(300)

    // The daily series adds up to the 30 days, and its last day is today.
    expect(d.days).toHaveLength(30)
    expect(d.days.at(-1)).toMatchObject({ day: today, revenue_fen: d.today.revenue_fen })
    expect(d.days.reduce((n, x) => n + x.revenue_fen!, 0)).toBe(d.last_30_days.revenue_fen)
    expect(d.days.find((x) => x.day === dayOf(new Date(Date.now() - 3 * DAY_MS)))).toMatchObject({
      revenue_fen: 5000,
      paid_orders: 1,
    })

    // Each day's revenue by kind adds up to the day's revenue; today's equals the orders' own split.
    for (const x of d.days) expect(x.by_kind!.reduce((n, k) => n + k.fen, 0)).toBe(x.revenue_fen)
    expect(Object.fromEntries(d.days.at(-1)!.by_kind!.map((k) => [k.key, k.fen]))).toEqual(
      Object.fromEntries(Object.entries(todayExpected.by_kind).map(([k, v]) => [k, v.fen])),
    )

    // Top courses: each course here sold once; the dearer first.
    expect(d.top_courses![0]).toMatchObject({ course_id: wechat.course, sold: 1, sales_fen: 12000, title: '测试课程' })
    expect(d.top_courses!.map((c) => c.course_id)).not.toContain(undefined)
    // A sale refunded in full is not a sale.
    expect(d.top_courses!.map((c) => c.course_id)).not.toContain(refunded.course)

    expect(d.pending).toMatchObject({
      refunds_to_approve: 1,
      refunds_failed: 0,
      transcodes_failed: 1,
      failed_transcodes: [{ video_id: broken, title: '坏掉的视频', error: 'ffmpeg exited with 1' }],
    })
    // Reading the dashboard is not a change: nothing is written to the staff action log for it.
    const logged = await db.select().from(staffActions)
    expect(logged.some((a) => a.route === '/api/admin/dashboard')).toBe(false)
  })

  // After the test above (one database per file): its two learners, its waiting refund and its failed transcode.
  it('answers each role only the parts it opens: no money for a teacher, no transcodes for finance', async () => {
    const { db } = t().database
    await paidCourse(t, { priceFen: 4200 })
    const broken = await makeVideo(db, await makeCourse(db), { title: '转码失败' })
    await db.insert(videoMedia).values({ videoId: broken, status: 'failed', error: 'boom' })
    const read = async (roles: Parameters<typeof makeMember>[1]) => {
      const res = await call<Dashboard>('GET', '/api/admin/dashboard', (await makeMember(db, roles)).token)
      expect(res.body.code).toBe(200)
      return res.body.data
    }

    const teacher = await read(['teacher'])
    expect(teacher.parts).toEqual(['learning', 'media'])
    expect(JSON.stringify(teacher)).not.toMatch(/revenue|_fen|refunds|new_members|points_|top_courses/)
    expect(teacher.today).toEqual({ from: expect.any(String) as string, active_learners: 2, plays: 2 })
    expect(teacher.pending).toMatchObject({ transcodes_failed: 2, failed_transcodes: [{ title: '转码失败' }, {}] })

    const finance = await read(['finance'])
    expect(finance.parts).toEqual(['sales', 'members', 'learning', 'refunds'])
    expect(finance.today.revenue_fen).toBeGreaterThanOrEqual(4200)
    expect(finance.top_courses?.length).toBeGreaterThan(0)
    expect(finance.pending).toEqual({ refunds_to_approve: 1, refunds_failed: 0 })

    // An assistant reads single orders for support, not the sales figures.
    const assistant = await read(['assistant'])
    expect(assistant.parts).toEqual(['members', 'learning', 'refunds'])
    expect(assistant.today.revenue_fen).toBeUndefined()
    expect(assistant.days[0]).toEqual({ day: expect.any(String) as string, new_members: expect.any(Number) as number })

    const admin = await read('admin')
    expect(admin.parts).toEqual(['sales', 'members', 'learning', 'refunds', 'media'])
  })
})
