import type { DbOrTx } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import type { PointRules } from '#server/integrations/payments/payments-config.ts'
import { extendVipMembership, grantCourses } from '#server/modules/access/access.service.ts'
import { grantTuition } from '#server/modules/access/tuition-access.service.ts'
import { useOrderCoupon } from '#server/modules/coupons/coupons.service.ts'
import type { OrderRow } from '#server/modules/orders/orders.service.ts'
import { earnOrderPoints, pointsEarnedBy } from '#server/modules/points/points.service.ts'
import { settleTuition } from '#server/modules/tuition/enrolments.service.ts'

/** What of an order fulfilment needs. */
export type FulfilledOrder = Pick<
  OrderRow,
  'id' | 'memberId' | 'orderNo' | 'couponId' | 'amountFen' | 'kind' | 'target'
>

/** What an order item buys. */
export interface BoughtItem {
  courseId: number | null
  vipPlanId: number | null
  vipDays: number | null
}

/**
 * What a paid order gives, inside the transaction that marks it paid: its courses (course, bundle, favourites) as
 * purchase entitlements (access), VIP days from max(now, current expiry) (access), nothing for amount orders
 * (staff see them in the order list), its scheduled payment for tuition orders (tuition, then access); its coupon becomes used (coupons) and the amount paid earns points, once
 * (points). Returns what was granted, for the order's event log. `exceptCourseIds`: courses the member owns
 * already, whose share is refunded.
 */
export async function fulfilOrder(
  tx: DbOrTx,
  order: FulfilledOrder,
  items: readonly BoughtItem[],
  now: Date,
  rules: PointRules,
  exceptCourseIds: readonly number[] = [],
): Promise<Record<string, unknown>> {
  const courseIds = items.flatMap((i) =>
    i.courseId === null || exceptCourseIds.includes(i.courseId) ? [] : [i.courseId],
  )
  const granted: Record<string, unknown> = {}
  if (courseIds.length > 0) {
    granted.courses = courseIds
    granted.entitlements_added = await grantCourses(tx, {
      memberId: order.memberId,
      courseIds,
      source: 'purchase',
      sourceRef: order.orderNo,
      now,
    })
  }
  for (const item of items) {
    if (item.vipPlanId !== null && item.vipDays) {
      granted.vip_days = item.vipDays
      granted.vip_expires_at = (await extendVipMembership(tx, order.memberId, item.vipDays, now)).toISOString()
    }
  }
  if (order.kind === 'tuition') {
    // A scheduled tuition payment (issue 15 §3): paid once; the first one the plan requires opens the programme.
    const paymentId = Number(order.target.slice('tuition:'.length))
    const access = await settleTuition(tx, paymentId, order.orderNo, now)
    granted.tuition_payment = paymentId
    if (access) {
      await grantTuition(tx, { ...access, now })
      granted.tuition_access_until = access.until.toISOString()
    }
  }
  if (order.couponId !== null) await useOrderCoupon(tx, order.id, now)
  const earned = pointsEarnedBy(order.amountFen, rules)
  if (
    earned > 0 &&
    (await earnOrderPoints(tx, { memberId: order.memberId, orderId: order.id, points: earned, at: now }))
  )
    granted.points_earned = earned
  return granted
}

/**
 * Logs a paid order and what it granted (`fulfilOrder`'s answer): `order.paid` with its number, and
 * `access.granted` when it bought courses or VIP days. Inside a workflow's transaction the log waits for the commit.
 */
export function announcePaid(
  events: Pick<BusinessEvents, 'emit'> | undefined,
  order: Pick<OrderRow, 'orderNo' | 'memberId' | 'amountFen'>,
  provider: string | null,
  granted: { courses?: unknown; vip_days?: unknown },
) {
  if (!events) return
  const base = { order_no: order.orderNo, member_id: order.memberId }
  events.emit({ event: 'order.paid', ...base, amount_fen: order.amountFen, provider })
  const courses = Array.isArray(granted.courses) ? (granted.courses as number[]) : []
  const vipDays = typeof granted.vip_days === 'number' ? granted.vip_days : 0
  if (courses.length > 0 || vipDays !== 0)
    events.emit({
      event: 'access.granted',
      member_id: order.memberId,
      source: 'purchase',
      ref: order.orderNo,
      ...(courses.length > 0 && { courses }),
      ...(vipDays !== 0 && { vip_days: vipDays }),
    })
}
