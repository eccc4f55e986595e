import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { findOwnOrder, lockOrderById, type OrderRow } from '#server/modules/orders/orders.service.ts'
import {
  hasOpenRequest,
  isUniqueViolation,
  lineOptions,
  newRefundNo,
  openRefund,
  recordRefundLines,
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
 *
 * With `itemIds` (a bundle or favourites order, issue 10 §1), only those courses: each must be watched under the
 * limit, still held from this order and in no other refund; the amount is the sum of their shares of what was
 * paid (`lineShares`). Under the order's lock the lines are checked again, so two requests at once, or the same
 * line twice, give one refund (and the one-open-request index lets only one in).
 */
export async function requestRefund(
  deps: CommerceDeps,
  memberId: number,
  orderNo: string,
  reason: string,
  itemIds?: readonly number[],
) {
  const { db, config, now } = deps
  const order = await findOwnOrder(db, memberId, orderNo)
  const open = hasOpenRequest(await refundsOfOrder(db, order.id))
  const perLine = itemIds !== undefined
  const why = await refundRefusal(db, config.payments, order, open, now(), perLine)
  if (why.entry !== Codes.Ok) throw new AppError(why.entry, why.msg)
  if (perLine) await chosenLines(db, config, order, itemIds)
  const at = now()
  try {
    const row = await deps.transaction(async (tx) => {
      const locked = await lockOrderById(tx, order.id)
      if (!locked || !['paid', 'partially_refunded'].includes(locked.state)) throw new AppError(Codes.RefundNotAllowed)
      const lines = perLine ? await chosenLines(tx, config, locked, itemIds) : null
      const remaining = locked.amountFen - locked.refundedFen
      const amountFen = lines ? lines.reduce((s, l) => s + l.share_fen, 0) : remaining
      if (amountFen > remaining) throw new AppError(Codes.RefundNotAllowed, '订单可退金额不足')
      const refund = await openRefund(tx, {
        refundNo: newRefundNo(),
        orderId: order.id,
        memberId,
        kind: 'member',
        provider: locked.provider,
        providerTxnId: locked.providerTxnId,
        paymentFen: locked.amountFen,
        amountFen,
        reason,
        state: 'requested',
        createdAt: at,
        updatedAt: at,
      })
      const events = orderEvents(tx, `member:${memberId}`, at)
      if (lines) await recordRefundLines(tx, refund.id, locked.id, lines)
      await events.noted(locked, 'refund_requested', {
        refund_no: refund.refundNo,
        reason,
        ...(lines && { items: lines.map((l) => l.item_id), amount_fen: amountFen }),
      })
      return { refund, lines }
    })
    const lines = row.lines?.map((l) => ({
      item_id: l.item_id,
      course_id: l.course_id,
      title: l.title,
      amount_fen: l.share_fen,
    }))
    return toRefundView(row.refund, order.orderNo, lines)
  } catch (err) {
    // Two requests at once: the partial unique index lets one in.
    if (isUniqueViolation(err)) throw new AppError(Codes.RefundExists)
    throw err
  }
}

/** The lines a per-course request names, each refundable now; refuses an unknown, watched or taken line. */
async function chosenLines(db: DbOrTx, config: CommerceDeps['config'], order: OrderRow, itemIds: readonly number[]) {
  const options = await lineOptions(db, config.payments, order)
  if (!options) throw new AppError(Codes.BadRequest, '这笔订单不能按课程退款', { field: 'order_item_ids' })
  const wanted = new Set(itemIds)
  const chosen = options.filter((o) => wanted.has(o.item_id))
  if (chosen.length !== wanted.size)
    throw new AppError(Codes.BadRequest, '所选课程不在这笔订单中', { field: 'order_item_ids' })
  const refused = chosen.find((o) => !o.refundable)
  if (refused?.state === 'watched')
    throw new AppError(
      Codes.RefundWatchedTooMuch,
      `《${refused.title}》已观看 ${refused.watched_percent}%，超过 ${config.payments.refundMaxWatchedPercent}% 后不能退款`,
    )
  if (refused) throw new AppError(Codes.RefundExists, `《${refused.title}》已申请或已退款`)
  return chosen
}
