import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findOrderById, lockOrderById, transitionOrder } from '#server/modules/orders/orders.service.ts'
import {
  findRefundByNo,
  isUniqueViolation,
  linesHeldElsewhere,
  lockRefundByNo,
  markRefundRetried,
  toRefundView,
  type RefundRow,
} from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { orderEvents } from './order-steps.ts'
import { sendRefund } from './send-refund.ts'

/**
 * An operator sends a failed refund to the provider again, with the same refund number (the provider treats it as
 * the same refund, so money cannot go twice). A member's refund takes its order back to refunding, for no more
 * than is still refundable. Recorded on the refund (who, when, how many times) and in the order's events.
 */
export async function retryRefund(deps: CommerceDeps, staffId: number, refundNo: string) {
  const { db, now } = deps
  const at = now()
  let refund: RefundRow
  try {
    refund = await deps.transaction(async (tx) => {
      const r = await lockRefundByNo(tx, refundNo)
      if (!r) throw new AppError(Codes.NotFound, '退款不存在')
      if (r.state !== 'failed' || r.provider === null) throw new AppError(Codes.RefundNotRetryable)
      const order = (await lockOrderById(tx, r.orderId))!
      let toState = order.state
      if (r.kind === 'member') {
        if (order.amountFen - order.refundedFen < r.amountFen || (await linesHeldElsewhere(tx, order.id, r.id)))
          throw new AppError(Codes.RefundNotAllowed, '订单可退金额已变化，请让会员重新申请')
        if (!(await transitionOrder(tx, order.id, ['paid', 'partially_refunded'], 'refunding', {}, at)))
          throw new AppError(Codes.RefundNotAllowed)
        toState = 'refunding'
      }
      const retried = await markRefundRetried(tx, r.id, staffId, at)
      if (!retried) throw new AppError(Codes.RefundNotRetryable)
      await orderEvents(tx, `admin:${staffId}`, at).moved(order.id, order.state, toState, 'refund_retried', {
        refund_no: r.refundNo,
        amount_fen: r.amountFen,
        last_error: r.lastError,
      })
      return retried
    })
  } catch (err) {
    // The member asked again meanwhile: one open request per order.
    if (isUniqueViolation(err)) throw new AppError(Codes.RefundExists)
    throw err
  }
  await sendRefund(deps, refund.id)
  const [latest, order] = await Promise.all([findRefundByNo(db, refund.refundNo), findOrderById(db, refund.orderId)])
  return toRefundView(latest!, order!.orderNo)
}
