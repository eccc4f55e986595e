import type { DbOrTx } from '#server/db/database.ts'
import type { OrderState } from '#server/db/schema/orders.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import { lockOrderById, transitionOrder } from '#server/modules/orders/orders.service.ts'
import { revokeCourses } from '#server/modules/access/access.service.ts'
import { linesByRefund, transitionRefund, type RefundRow } from '#server/modules/refunds/refunds.service.ts'
import { orderEvents } from './order-steps.ts'
import { refundOrder } from './refund-order.ts'

/**
 * Finishes a refund the provider confirmed, inside the caller's transaction (the refund row locked): the refund
 * succeeds, the order moves to refunded (all of it back) or partially_refunded, and a full refund takes back what
 * the order gave (`refundOrder`: access, coupons, points). Returns false when the refund was no longer processing.
 * A per-course refund that leaves money in the order takes back only its lines' courses. `events` (the
 * workflow's, written after its commit) gets order.refunded and, when access was taken back, access.revoked.
 */
export async function completeRefund(
  tx: DbOrTx,
  refund: RefundRow,
  providerRefundId: string | null,
  actor: string,
  at: Date,
  events?: Pick<BusinessEvents, 'emit'>,
) {
  const done = await transitionRefund(
    tx,
    refund.id,
    ['processing'],
    'succeeded',
    { completedAt: at, providerRefundId: providerRefundId ?? refund.providerRefundId, lastError: null },
    at,
  )
  if (!done || !refund.movesOrder) return Boolean(done)
  const order = (await lockOrderById(tx, refund.orderId))!
  const refunded = order.refundedFen + refund.amountFen
  const to: OrderState = refunded >= order.amountFen ? 'refunded' : 'partially_refunded'
  const moved = await transitionOrder(tx, order.id, ['refunding'], to, { refundedFen: refunded }, at)
  if (!moved) return true
  const revoked = to === 'refunded' ? await refundOrder(tx, moved, at, actor) : await revokeLines(tx, refund, moved, at)
  await orderEvents(tx, actor, at).moved(order.id, 'refunding', to, 'refund_succeeded', {
    refund_no: refund.refundNo,
    amount_fen: refund.amountFen,
    ...revoked,
  })
  announceRefunded(events, moved, refund.refundNo, refund.amountFen, revoked)
  return true
}

/**
 * A per-course refund that leaves money in the order (partially_refunded): only its lines' courses are taken back
 * (issue 10 §1); the order's coupon and points stay until all of it is refunded. Nothing for a refund without lines.
 */
async function revokeLines(tx: DbOrTx, refund: RefundRow, order: { orderNo: string; memberId: number }, at: Date) {
  const lines = (await linesByRefund(tx, [refund.id])).get(refund.id)
  const courseIds = lines?.flatMap((l) => (l.course_id === null ? [] : [l.course_id])) ?? []
  if (courseIds.length === 0) return {}
  const n = await revokeCourses(tx, {
    memberId: order.memberId,
    source: 'purchase',
    sourceRef: order.orderNo,
    courseIds,
    now: at,
  })
  return { entitlements_revoked: n, courses_revoked: courseIds }
}

/**
 * Logs a refunded order (`order.refunded`, `full` when all its money is back) and, when the refund took back what
 * it gave (`refundOrder`'s or `revokeLines`' answer), `access.revoked`.
 */
export function announceRefunded(
  events: Pick<BusinessEvents, 'emit'> | undefined,
  order: { orderNo: string; memberId: number; state: OrderState },
  refundNo: string,
  amountFen: number,
  revoked: { entitlements_revoked?: unknown; vip_days?: unknown },
) {
  if (!events) return
  const full = order.state === 'refunded'
  events.emit({
    event: 'order.refunded',
    order_no: order.orderNo,
    refund_no: refundNo,
    member_id: order.memberId,
    amount_fen: amountFen,
    full,
  })
  const entitlements = typeof revoked.entitlements_revoked === 'number' ? revoked.entitlements_revoked : 0
  const vipDays = typeof revoked.vip_days === 'number' ? revoked.vip_days : 0
  if (entitlements > 0 || vipDays !== 0)
    events.emit({
      event: 'access.revoked',
      member_id: order.memberId,
      source: 'purchase',
      ref: order.orderNo,
      ...(entitlements > 0 && { entitlements }),
      ...(vipDays !== 0 && { vip_days: vipDays }),
    })
}

/**
 * A refund the provider refused or that failed, inside the caller's transaction: the refund fails, and a member's
 * refund gives its order back (paid, or partially_refunded after an earlier refund) so staff see the failure.
 */
export async function failRefund(tx: DbOrTx, refund: RefundRow, detail: string, actor: string, at: Date) {
  const failed = await transitionRefund(
    tx,
    refund.id,
    ['processing'],
    'failed',
    { lastError: detail.slice(0, 500) },
    at,
  )
  if (!failed || !refund.movesOrder || refund.kind !== 'member') return
  const order = (await lockOrderById(tx, refund.orderId))!
  const back: OrderState = order.refundedFen > 0 ? 'partially_refunded' : 'paid'
  if (!(await transitionOrder(tx, order.id, ['refunding'], back, {}, at))) return
  await orderEvents(tx, actor, at).moved(order.id, 'refunding', back, 'refund_failed', {
    refund_no: refund.refundNo,
    detail,
  })
}
