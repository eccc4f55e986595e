import { and, eq, isNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { entitlements, vipMemberships } from '#server/db/schema/access.ts'
import { favourites } from '#server/db/schema/favourites.ts'
import { orders } from '#server/db/schema/orders.ts'
import { vipPlans } from '#server/db/schema/vip.ts'
import { insertEntitlement } from '#server/modules/access/access.repository.ts'
import { pointBalanceOf } from '#server/modules/points/points.service.ts'
import { headersOf, settleSimulators, useCommerceApp, type ApiBody } from '#server/modules/payments/testing.ts'
import { makeCourse, makeMember } from '#tests/support/media-fixtures.ts'
import { refundOrder } from './refund-order.ts'

// refundOrder takes back what one order gave — its own grants, its VIP days, its points — and nothing else.
describe('refundOrder (server/use-cases/refund-order.ts)', () => {
  const { t, clock } = useCommerceApp()
  const sims = () => t().app.paymentSimulators!

  async function buy(token: string, url: string, payload: Record<string, unknown>) {
    const res = await t().app.inject({ method: 'POST', url, headers: headersOf(token), payload })
    const orderNo = res.json<ApiBody<{ order_no: string }>>().data.order_no
    sims().wechat.pay(orderNo)
    await settleSimulators(t().app)
    const [order] = await t().database.db.select().from(orders).where(eq(orders.orderNo, orderNo))
    expect(order!.state).toBe('paid')
    return order!
  }

  async function activeCourses(memberId: number) {
    const rows = await t()
      .database.db.select({ courseId: entitlements.courseId })
      .from(entitlements)
      .where(and(eq(entitlements.memberId, memberId), isNull(entitlements.revokedAt)))
    return rows.map((r) => r.courseId).sort((a, b) => a - b)
  }

  const refund = (order: typeof orders.$inferSelect) =>
    t().database.db.transaction((tx) => refundOrder(tx, order, clock.now(), 'admin:1'))

  it('revokes exactly the courses the order granted, once; grants from staff and other orders stay', async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const [fromStaff, b, c, other] = [
      await makeCourse(db, { priceFen: 1000 }),
      await makeCourse(db, { priceFen: 2000 }),
      await makeCourse(db, { priceFen: 3000 }),
      await makeCourse(db, { priceFen: 4000 }),
    ]
    await insertEntitlement(db, {
      memberId: m.id,
      courseId: fromStaff,
      source: 'admin',
      grantedAt: clock.now(),
      expiresAt: null,
    })
    for (const courseId of [b, c])
      await db.insert(favourites).values({ memberId: m.id, courseId, createdAt: clock.now() })
    const both = await buy(m.token, '/api/fav/pay', { course_ids: [b, c], pay_method: 'wechat_h5' })
    await buy(m.token, '/api/pay/course', { course_id: other, pay_method: 'wechat_h5' })
    expect(await activeCourses(m.id)).toEqual([fromStaff, b, c, other].sort((x, y) => x - y))
    const balance = await pointBalanceOf(db, m.id)

    expect(await refund(both)).toEqual({ entitlements_revoked: 2, points_taken_back: 50 })
    expect(await activeCourses(m.id)).toEqual([fromStaff, other].sort((x, y) => x - y))
    expect(await pointBalanceOf(db, m.id)).toBe(balance - 50)
    // Again: nothing more to take back.
    expect(await refund(both)).toEqual({ entitlements_revoked: 0 })
    expect(await activeCourses(m.id)).toEqual([fromStaff, other].sort((x, y) => x - y))
    expect(await pointBalanceOf(db, m.id)).toBe(balance - 50)
  })

  it("takes back a VIP order's days and only those", async () => {
    const db = t().database.db
    const m = await makeMember(db)
    const [plan] = await db.insert(vipPlans).values({ name: '月卡', days: 30, priceFen: 3900 }).returning()
    const first = await buy(m.token, '/api/pay/vip', { plan_id: plan!.id, pay_method: 'wechat_h5' })
    const [before] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    const expected = new Date(before!.expiresAt.getTime() - 30 * 86_400_000)
    expect(await refund(first)).toEqual({
      vip_days: 30,
      vip_expires_at: expected.toISOString(),
      points_taken_back: 39,
    })
    const [after] = await db.select().from(vipMemberships).where(eq(vipMemberships.memberId, m.id))
    expect(after!.expiresAt).toEqual(expected)
  })
})
