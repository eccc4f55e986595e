import type { DbOrTx } from '#server/db/database.ts'
import { returnOrderCoupon } from '#server/modules/coupons/coupons.service.ts'
import type { OrderRow } from '#server/modules/orders/orders.service.ts'
import { addPoints, lockPointBalance, orderPoints, takePoints } from '#server/modules/points/points.service.ts'

/**
 * Gives back what an order took and takes back the points it gave: its coupon is available again (coupons), the
 * points it spent return, the points it earned go (as many as the balance still holds, so a balance never goes
 * negative) (points). Idempotent: it works from the order's own ledger entries. Used when an order closes and
 * when it is refunded in full. Returns what was released, for the order's event log.
 */
export async function releaseOrder(
  tx: DbOrTx,
  order: Pick<OrderRow, 'id' | 'memberId' | 'couponId'>,
  now: Date,
  actor: string,
): Promise<Record<string, unknown>> {
  const released: Record<string, unknown> = {}
  if ((await returnOrderCoupon(tx, order.id)) > 0) released.coupon_returned = order.couponId
  const net = await orderPoints(tx, order.id)
  if (net.spent > 0) {
    await addPoints(tx, {
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
    const take = Math.min(net.earned, await lockPointBalance(tx, order.memberId, now))
    if (take > 0)
      await takePoints(tx, {
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
