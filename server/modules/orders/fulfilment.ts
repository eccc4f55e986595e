import type { DbOrTx } from '#server/db/database.ts'
import type { PointRules } from '#server/integrations/payments/payments-config.ts'
import { markCouponUsed, returnCoupon } from '#server/modules/coupons/coupons.repository.ts'
import { pointsEarned } from '#server/modules/coupons/pricing.ts'
import { creditPoints, debitPoints, lockBalance, orderPointNet } from '#server/modules/points/points.repository.ts'
import {
  extendVipMembership as extendMembership,
  shortenVipMembership as shortenMembership,
} from '#server/modules/access/access.service.ts'
import { findItems, grantPurchases, revokePurchases, type OrderRow } from './orders.repository.ts'

/**
 * What a paid order gives, inside the transaction that marks it paid: courses (course, bundle, favourites) as
 * entitlements with source 'purchase'; VIP days from max(now, current expiry); amount orders nothing (staff see
 * them in the order list). Its coupon becomes used and the amount paid earns points. Returns what was granted,
 * for the order's event log. `exceptCourseIds`: courses the member owns already, whose share is refunded.
 */
export async function grantOrder(
  tx: DbOrTx,
  order: OrderRow,
  now: Date,
  rules: PointRules,
  exceptCourseIds: readonly number[] = [],
): Promise<Record<string, unknown>> {
  const items = await findItems(tx, [order.id])
  const courseIds = items.flatMap((i) =>
    i.courseId === null || exceptCourseIds.includes(i.courseId) ? [] : [i.courseId],
  )
  const granted: Record<string, unknown> = {}
  if (courseIds.length > 0) {
    granted.courses = courseIds
    granted.entitlements_added = await grantPurchases(tx, {
      memberId: order.memberId,
      orderNo: order.orderNo,
      courseIds,
      now,
    })
  }
  for (const item of items) {
    if (item.vipPlanId !== null && item.vipDays) {
      granted.vip_days = item.vipDays
      granted.vip_expires_at = (await extendMembership(tx, order.memberId, item.vipDays, now)).toISOString()
    }
  }
  if (order.couponId !== null) await markCouponUsed(tx, order.id, now)
  const earned = pointsEarned(order.amountFen, rules)
  if (earned > 0 && (await orderPointNet(tx, order.id)).earned === 0) {
    await creditPoints(tx, {
      memberId: order.memberId,
      points: earned,
      reason: 'order_earned',
      orderId: order.id,
      actor: 'system',
      at: now,
    })
    granted.points_earned = earned
  }
  return granted
}

/**
 * Gives back what an order took and takes back what it gave in points and coupons: its coupon is available
 * again, the points it spent return, the points it earned go (as many as the balance still holds, so a balance
 * never goes negative). Idempotent: it works from the order's own ledger entries. Used when an order closes and
 * when it is refunded in full.
 */
export async function releaseBenefits(
  tx: DbOrTx,
  order: OrderRow,
  now: Date,
  actor: string,
): Promise<Record<string, unknown>> {
  const released: Record<string, unknown> = {}
  if ((await returnCoupon(tx, order.id)) > 0) released.coupon_returned = order.couponId
  const net = await orderPointNet(tx, order.id)
  if (net.spent > 0) {
    await creditPoints(tx, {
      memberId: order.memberId,
      points: net.spent,
      reason: 'order_spent_returned',
      orderId: order.id,
      actor,
      at: now,
    })
    released.points_returned = net.spent
  }
  if (net.earned > 0) {
    const take = Math.min(net.earned, await lockBalance(tx, order.memberId, now))
    if (take > 0)
      await debitPoints(tx, {
        memberId: order.memberId,
        points: take,
        reason: 'order_earned_reversed',
        orderId: order.id,
        actor,
        at: now,
      })
    released.points_taken_back = take
    if (take < net.earned) released.points_not_recovered = net.earned - take
  }
  return released
}

/** Takes back what `grantOrder` gave (a full refund), and only that. */
export async function revokeOrder(
  tx: DbOrTx,
  order: OrderRow,
  now: Date,
  actor: string,
): Promise<Record<string, unknown>> {
  const items = await findItems(tx, [order.id])
  const revoked: Record<string, unknown> = {}
  if (items.some((i) => i.courseId !== null))
    revoked.entitlements_revoked = await revokePurchases(tx, order.orderNo, now)
  for (const item of items) {
    if (item.vipPlanId !== null && item.vipDays) {
      revoked.vip_days = item.vipDays
      revoked.vip_expires_at = (await shortenMembership(tx, order.memberId, item.vipDays, now))?.toISOString() ?? null
    }
  }
  return { ...revoked, ...(await releaseBenefits(tx, order, now, actor)) }
}
