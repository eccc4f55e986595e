import type { DbOrTx } from '#server/db/database.ts'
import type { OrderState } from '#server/db/schema/orders.ts'
import { lockOrderById, transitionOrder } from '#server/modules/orders/orders.service.ts'
import { transitionRefund, type RefundRow } from '#server/modules/refunds/refunds.service.ts'
import { orderEvents } from './order-steps.ts'
import { refundOrder } from './refund-order.ts'

/**
 * Finishes a refund the provider confirmed, inside the caller's transaction (the refund row locked): the refund
 * succeeds, the order moves to refunded (all of it back) or partially_refunded, and a full refund takes back what
 * the order gave (`refundOrder`: access, coupons, points). Returns false when the refund was no longer processing.
 */
export async function completeRefund(
  tx: DbOrTx,
  refund: RefundRow,
  providerRefundId: string | null,
  actor: string,
  at: Date,
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
  const revoked = to === 'refunded' ? await refundOrder(tx, moved, at, actor) : {}
  await orderEvents(tx, actor, at).moved(order.id, 'refunding', to, 'refund_succeeded', {
    refund_no: refund.refundNo,
    amount_fen: refund.amountFen,
    ...revoked,
  })
  return true
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
