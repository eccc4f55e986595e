import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements } from '#server/db/schema/access.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { refundLines } from '#server/db/schema/refunds.ts'
import {
  expectLedgerConsistent,
  headersOf,
  settleSimulators,
  until,
  useCommerceApp,
  type ApiBody,
} from '#server/modules/payments/testing.ts'
import { allocate } from '#shared/money.ts'
import { makeCourse, makeMember, makeVideo } from '#tests/support/media-fixtures.ts'

interface Line {
  item_id: number
  course_id: number
  share_fen: number
  watched_percent: number
  state: string
  refundable: boolean
}
interface Check {
  refundable: boolean
  code: number
  lines: Line[] | null
  refunds: { refund_no: string; amount_fen: number; lines?: { item_id: number; amount_fen: number }[] }[]
}
interface Refund {
  refund_no: string
  state: string
  amount_fen: number
  lines?: { item_id: number; course_id: number; amount_fen: number }[]
}

describe('per-course refunds of a favourites order (issue 10 §1)', () => {
  const { t, clock } = useCommerceApp()

  const call = async <T>(method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
    const res = await t().app.inject({ method, url, headers: headersOf(token), payload })
    return res.json<ApiBody<T>>()
  }

  /** A member who bought three courses (99, 199, 49 yuan) in one favourites order, 10 yuan of it with points. */
  async function boughtThree() {
    const db = t().database.db
    const admin = await makeMember(db, 'admin')
    const m = await makeMember(db)
    const prices = [9900, 19900, 4900]
    const courses: number[] = []
    const videos: number[] = []
    for (const [i, priceFen] of prices.entries()) {
      const course = await makeCourse(db, { title: `课程${i + 1}`, priceFen })
      courses.push(course)
      videos.push(await makeVideo(db, course, { durationSeconds: 600 }))
      await db.insert(favourites).values({ memberId: m.id, courseId: course, createdAt: clock.now() })
    }
    expect(
      (await call('POST', '/api/admin/points/adjust', admin.token, { member_id: m.id, delta: 1000, note: '测试' }))
        .code,
    ).toBe(200)
    const order = (
      await call<{ order_no: string; amount_fen: number }>('POST', '/api/fav/pay', m.token, {
        pay_method: 'wechat_h5',
        points: 1000,
      })
    ).data
    expect(order.amount_fen).toBe(33700)
    t().app.paymentSimulators!.wechat.pay(order.order_no)
    await settleSimulators(t().app)
    return { db, admin, m, courses, videos, orderNo: order.order_no }
  }

  async function held(memberId: number) {
    const rows = await t()
      .database.db.select({ courseId: entitlements.courseId })
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), isNull(entitlements.revokedAt)))
    return rows.map((r) => r.courseId).sort((a, b) => a - b)
  }

  async function approveAndSettle(adminToken: string, memberToken: string, refundNo: string, orderNo: string) {
    expect((await call<Refund>('POST', `/api/admin/refunds/${refundNo}/approve`, adminToken, {})).code).toBe(200)
    await until(async () => {
      const o = (await call<{ state: string }>('GET', `/api/orders/${orderNo}`, memberToken)).data
      return o.state !== 'refunding'
    })
    await settleSimulators(t().app)
  }

  it('shares add up to what was paid; a watched course is kept; racing requests for a line give one refund', async () => {
    const { db, admin, m, courses, videos, orderNo } = await boughtThree()
    // The second course watched half-way: past the 20% rule.
    await db.insert(studyProgress).values({
      memberId: m.id,
      videoId: videos[1]!,
      courseId: courses[1]!,
      position: 300,
      duration: 600,
      createdAt: clock.now(),
      updatedAt: clock.now(),
    })
    const check = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).data
    expect(check.refundable).toBe(true)
    // In course order (the order lists them by when they were favourited).
    const lines = courses.map((c) => check.lines!.find((l) => l.course_id === c)!)
    expect(lines.map((l) => l.share_fen)).toEqual(allocate(33700, [9900, 19900, 4900]))
    expect(lines.reduce((s, l) => s + l.share_fen, 0)).toBe(33700)
    expect(lines.map((l) => l.state)).toEqual(['available', 'watched', 'available'])

    const watched = await call('POST', '/api/refunds', m.token, {
      order_no: orderNo,
      reason: '不想学了',
      order_item_ids: [lines[1]!.item_id],
    })
    expect(watched.code).toBe(492)

    // The same line asked for twice at once, and another line at the same time: one refund gets in.
    const raced = await Promise.all(
      [[lines[0]!.item_id], [lines[0]!.item_id], [lines[2]!.item_id]].map((ids) =>
        call<Refund>('POST', '/api/refunds', m.token, { order_no: orderNo, reason: '不想学了', order_item_ids: ids }),
      ),
    )
    const accepted = raced.filter((r) => r.code === 200)
    expect(accepted).toHaveLength(1)
    expect(raced.filter((r) => r.code === 493)).toHaveLength(2)
    const first = accepted[0]!.data
    expect(first.lines).toHaveLength(1)
    expect(first.amount_fen).toBe(first.lines![0]!.amount_fen)
    expect(await db.select().from(refundLines)).toHaveLength(1)

    await approveAndSettle(admin.token, m.token, first.refund_no, orderNo)
    const after = (await call<{ state: string; refunded_fen: number }>('GET', `/api/orders/${orderNo}`, m.token)).data
    expect(after).toMatchObject({ state: 'partially_refunded', refunded_fen: first.amount_fen })
    // Only that line's course is taken back.
    const gone = first.lines![0]!.course_id
    expect(await held(m.id)).toEqual(courses.filter((c) => c !== gone))

    // That line again: refused; the other unwatched line: its own refund.
    const again = await call('POST', '/api/refunds', m.token, {
      order_no: orderNo,
      reason: '再退一次',
      order_item_ids: [first.lines![0]!.item_id],
    })
    expect(again.code).toBe(493)
    const other = lines.find((l) => l.state === 'available' && l.item_id !== first.lines![0]!.item_id)!
    const second = await call<Refund>('POST', '/api/refunds', m.token, {
      order_no: orderNo,
      reason: '不想学了',
      order_item_ids: [other.item_id],
    })
    expect(second).toMatchObject({ code: 200, data: { amount_fen: other.share_fen } })
    await approveAndSettle(admin.token, m.token, second.data.refund_no, orderNo)
    const last = (await call<{ state: string; refunded_fen: number }>('GET', `/api/orders/${orderNo}`, m.token)).data
    expect(last).toMatchObject({ state: 'partially_refunded', refunded_fen: lines[0]!.share_fen + lines[2]!.share_fen })
    expect(await held(m.id)).toEqual([courses[1]])

    // The console's refunds list names each refund's lines.
    const staff = (await call<{ list: Refund[] }>('GET', '/api/admin/refunds', admin.token)).data.list
    expect(staff.map((r) => r.lines?.map((l) => l.course_id))).toEqual(
      expect.arrayContaining([[courses[0]], [courses[2]]]),
    )
    const final = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).data
    expect(courses.map((c) => final.lines!.find((l) => l.course_id === c)!.state)).toEqual([
      'refunded',
      'watched',
      'refunded',
    ])
    expect(final.refundable).toBe(false)
    // The dashboard's best sellers count the course kept, not the two given back.
    const top = (
      await call<{ top_courses: { course_id: number; sold: number }[] }>('GET', '/api/admin/dashboard', admin.token)
    ).data.top_courses
    expect(top.filter((c) => courses.includes(c.course_id))).toEqual([
      expect.objectContaining({ course_id: courses[1], sold: 1 }),
    ])
    await expectLedgerConsistent(db)
  })

  it('every line refunded one by one returns exactly what was paid, then the points too', async () => {
    const { db, admin, m, orderNo } = await boughtThree()
    const lines = (await call<Check>('GET', `/api/refunds/check?order_no=${orderNo}`, m.token)).data.lines!
    for (const line of [lines[2]!, lines[0]!, lines[1]!]) {
      const asked = await call<Refund>('POST', '/api/refunds', m.token, {
        order_no: orderNo,
        reason: '不想学了',
        order_item_ids: [line.item_id],
      })
      expect(asked.code).toBe(200)
      await approveAndSettle(admin.token, m.token, asked.data.refund_no, orderNo)
    }
    const order = (await call<{ state: string; refunded_fen: number }>('GET', `/api/orders/${orderNo}`, m.token)).data
    expect(order).toMatchObject({ state: 'refunded', refunded_fen: 33700 })
    expect(await held(m.id)).toEqual([])
    // The 1,000 points spent come back and the points the payment earned go.
    expect((await call<{ balance: number }>('GET', '/api/points', m.token)).data.balance).toBe(1000)
    await expectLedgerConsistent(db)
  })

  it('a single-course order has no lines and refuses order_item_ids', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const course = await makeCourse(db, { priceFen: 5000 })
    const res = await call<{ order_no: string }>('POST', '/api/pay/course', m.token, {
      course_id: course,
      pay_method: 'wechat_h5',
    })
    t().app.paymentSimulators!.wechat.pay(res.data.order_no)
    await settleSimulators(t().app)
    expect(
      (await call<Check>('GET', `/api/refunds/check?order_no=${res.data.order_no}`, m.token)).data.lines,
    ).toBeNull()
    const asked = await call('POST', '/api/refunds', m.token, {
      order_no: res.data.order_no,
      reason: '不想学了',
      order_item_ids: [1],
    })
    expect(asked.code).toBe(400)
  })
})
