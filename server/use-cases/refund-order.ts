import type { DbOrTx } from '#server/db/database.ts'
import { revokeCourses, shortenVipMembership } from '#server/modules/access/access.service.ts'
import { orderItems, type OrderRow } from '#server/modules/orders/orders.service.ts'
import { releaseOrder } from './release-order.ts'

/**
 * Takes back what a paid order gave, once it is refunded in full, and only that: the courses it granted (access,
 * by order number), its VIP days (access), then its coupon and points (`releaseOrder`). Runs inside the
 * transaction that moves the order to refunded; returns what was taken back, for the order's event log.
 */
export async function refundOrder(
  tx: DbOrTx,
  order: Pick<OrderRow, 'id' | 'memberId' | 'orderNo' | 'couponId'>,
  now: Date,
  actor: string,
): Promise<Record<string, unknown>> {
  const items = await orderItems(tx, [order.id])
  const revoked: Record<string, unknown> = {}
  if (items.some((i) => i.courseId !== null))
    revoked.entitlements_revoked = await revokeCourses(tx, {
      memberId: order.memberId,
      source: 'purchase',
      sourceRef: order.orderNo,
      now,
    })
  for (const item of items) {
    if (item.vipPlanId !== null && item.vipDays) {
      revoked.vip_days = item.vipDays
      revoked.vip_expires_at =
        (await shortenVipMembership(tx, order.memberId, item.vipDays, now))?.toISOString() ?? null
    }
  }
  return { ...revoked, ...(await releaseOrder(tx, order, now, actor)) }
}
