import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findOwnOrder, lockOrderById } from '#server/modules/orders/orders.service.ts'
import {
  hasOpenRequest,
  isUniqueViolation,
  newRefundNo,
  openRefund,
  refundRefusal,
  refundsOfOrder,
  toRefundView,
} from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { orderEvents } from './order-steps.ts'

/**
 * A member asks for the whole remaining amount of one of their orders back, with a reason (POST /refunds): the
 * refund rule first (paid, within the window, watched under the limit, no open request), then in one transaction
 * the order is locked and still refundable, the request recorded (refunds) and noted in the order's events
 * (orders). An operator decides.
 */
export async function requestRefund(deps: CommerceDeps, memberId: number, orderNo: string, reason: string) {
  const { db, config, now } = deps
  const order = await findOwnOrder(db, memberId, orderNo)
  const why = await refundRefusal(db, config.payments, order, hasOpenRequest(await refundsOfOrder(db, order.id)), now())
  if (why.entry !== Codes.Ok) throw new AppError(why.entry, why.msg)
  const at = now()
  try {
    const row = await deps.transaction(async (tx) => {
      const locked = await lockOrderById(tx, order.id)
      if (!locked || !['paid', 'partially_refunded'].includes(locked.state)) throw new AppError(Codes.RefundNotAllowed)
      const refund = await openRefund(tx, {
        refundNo: newRefundNo(),
        orderId: order.id,
        memberId,
        kind: 'member',
        provider: locked.provider,
        providerTxnId: locked.providerTxnId,
        paymentFen: locked.amountFen,
        amountFen: locked.amountFen - locked.refundedFen,
        reason,
        state: 'requested',
        createdAt: at,
        updatedAt: at,
      })
      const events = orderEvents(tx, `member:${memberId}`, at)
      await events.noted(locked, 'refund_requested', { refund_no: refund.refundNo, reason })
      return refund
    })
    return toRefundView(row, order.orderNo)
  } catch (err) {
    // Two requests at once: the partial unique index lets one in.
    if (isUniqueViolation(err)) throw new AppError(Codes.RefundExists)
    throw err
  }
}
