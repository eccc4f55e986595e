import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findOrderById, lockOrderById, transitionOrder, type OrderRow } from '#server/modules/orders/orders.service.ts'
import {
  findRefundByNo,
  linesByRefund,
  lockRefundByNo,
  toRefundView,
  transitionRefund,
  type RefundRow,
} from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { announceRefunded } from './complete-refund.ts'
import { orderEvents } from './order-steps.ts'
import { refundOrder } from './refund-order.ts'
import { sendRefund } from './send-refund.ts'

/**
 * An operator approves a member's request (all of it, or `amountFen` of it), recorded with who and when: the order
 * goes to refunding and the refund to the provider; the answer or the provider's notification completes it. An
 * order paid with points and coupons alone completes at once (no money moves): its points and coupon come back
 * and its grants go (`refundOrder`).
 */
export async function approveRefund(
  deps: CommerceDeps,
  staffId: number,
  refundNo: string,
  input: { amountFen?: number; note?: string },
) {
  const { db, now } = deps
  const at = now()
  const refund = await deps.transaction(async (tx) => {
    const r = await lockRefundByNo(tx, refundNo)
    if (!r || r.kind !== 'member') throw new AppError(Codes.NotFound, '退款申请不存在')
    if (r.state !== 'requested') throw new AppError(Codes.RefundDecided)
    const order = (await lockOrderById(tx, r.orderId))!
    // A per-course refund gives back no more than its lines' shares; a whole refund what is left of the order.
    const lines = (await linesByRefund(tx, [r.id])).get(r.id)
    const remaining = lines
      ? Math.min(r.amountFen, order.amountFen - order.refundedFen)
      : order.amountFen - order.refundedFen
    const amount = input.amountFen ?? remaining
    if (amount > remaining)
      throw new AppError(Codes.BadRequest, `退款金额不能超过可退金额 ${remaining} 分`, { field: 'amount_fen' })
    const moved = await transitionOrder(tx, order.id, ['paid', 'partially_refunded'], 'refunding', {}, at)
    if (!moved) throw new AppError(Codes.RefundNotAllowed)
    const approved = (await transitionRefund(
      tx,
      r.id,
      ['requested'],
      'processing',
      { amountFen: amount, decidedBy: staffId, decidedAt: at, decisionNote: input.note ?? null },
      at,
    ))!
    const events = orderEvents(tx, `admin:${staffId}`, at)
    await events.moved(order.id, order.state, 'refunding', 'refund_approved', {
      refund_no: r.refundNo,
      amount_fen: amount,
    })
    if (approved.provider === null)
      await completeWithoutProvider(tx, approved, moved, `admin:${staffId}`, at, deps.events)
    return approved
  })
  if (refund.provider !== null) await sendRefund(deps, refund.id)
  const [latest, order] = await Promise.all([findRefundByNo(db, refund.refundNo), findOrderById(db, refund.orderId)])
  return toRefundView(latest!, order!.orderNo)
}

/**
 * Completes an approved refund of an order paid with points and coupons alone, inside the approval's
 * transaction: nothing to send, so the refund succeeds and the order is refunded at once, giving back its points
 * and coupon and taking back what it granted.
 */
async function completeWithoutProvider(
  tx: DbOrTx,
  refund: RefundRow,
  order: OrderRow,
  actor: string,
  at: Date,
  events: CommerceDeps['events'],
) {
  await transitionRefund(tx, refund.id, ['processing'], 'succeeded', { completedAt: at }, at)
  const refunded = (await transitionOrder(tx, order.id, ['refunding'], 'refunded', {}, at))!
  const revoked = await refundOrder(tx, refunded, at, actor)
  await orderEvents(tx, actor, at).moved(order.id, 'refunding', 'refunded', 'refund_succeeded', {
    refund_no: refund.refundNo,
    amount_fen: 0,
    without_provider: true,
    ...revoked,
  })
  announceRefunded(events, refunded, refund.refundNo, 0, revoked)
}
