import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { lockOrderById } from '#server/modules/orders/orders.service.ts'
import { lockRefundByNo, toRefundView, transitionRefund } from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { orderEvents } from './order-steps.ts'

/**
 * An operator turns a member's request down with a note the member sees: the refund is rejected (refunds) and the
 * decision noted in the order's events (orders), in one transaction.
 */
export async function rejectRefund(deps: CommerceDeps, staffId: number, refundNo: string, note: string) {
  const at = deps.now()
  return deps.transaction(async (tx) => {
    const r = await lockRefundByNo(tx, refundNo)
    if (!r || r.kind !== 'member') throw new AppError(Codes.NotFound, '退款申请不存在')
    const rejected = await transitionRefund(
      tx,
      r.id,
      ['requested'],
      'rejected',
      { decidedBy: staffId, decidedAt: at, decisionNote: note },
      at,
    )
    if (!rejected) throw new AppError(Codes.RefundDecided)
    const order = (await lockOrderById(tx, r.orderId))!
    await orderEvents(tx, `admin:${staffId}`, at).noted(order, 'refund_rejected', { refund_no: r.refundNo, note })
    return toRefundView(rejected, order.orderNo)
  })
}
