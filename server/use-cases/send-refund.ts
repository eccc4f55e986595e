import { ProviderError } from '#server/integrations/payments/payments.ts'
import { findOrderById } from '#server/modules/orders/orders.service.ts'
import { notifyUrl } from '#server/modules/payments/payments.service.ts'
import {
  findRefund,
  lockRefundByNo,
  noteRefundAttempt,
  type RefundRow,
} from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { completeRefund, failRefund } from './complete-refund.ts'

type RefundOutcome = 'requested' | 'rejected' | 'processing' | 'succeeded' | 'failed' | null

/**
 * Sends (or sends again: same refund number, so the provider does not pay twice) one processing refund to its
 * provider. A final answer completes or fails it at once (`completeRefund`, `failRefund`); otherwise the attempt
 * is noted and the refund notification or the sweep finishes it. Returns the refund's state after the attempt.
 */
export async function sendRefund(deps: CommerceDeps, refundId: number): Promise<RefundOutcome> {
  const { db, providers, now } = deps
  const refund = await findRefund(db, refundId)
  if (!refund || refund.state !== 'processing' || !refund.provider) return refund?.state ?? null
  const order = (await findOrderById(db, refund.orderId))!
  const attempt = { deps, refund, at: now() }
  try {
    const result = await providers[refund.provider].refund({
      orderNo: order.orderNo,
      refundNo: refund.refundNo,
      amountFen: refund.amountFen,
      totalFen: refund.paymentFen,
      reason: refund.reason,
      notifyUrl: notifyUrl(deps.config.publicUrl, `${refund.provider}/refund`),
    })
    if (result.state === 'processing') return stillProcessing(attempt, { providerRefundId: result.providerRefundId })
    return settleRefund(attempt, result.state, result.providerRefundId, result.detail ?? 'refused by the provider')
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    return stillProcessing(attempt, { lastError: err.message.slice(0, 500) })
  }
}

/**
 * Asks the provider how a refund sent earlier stands (no final answer or notification came): completes or fails
 * it as the provider says, or sends it again, with the same number, when the provider never got it. A provider
 * that reports another amount than ours completes nothing: staff look at it.
 */
export async function checkRefund(deps: CommerceDeps, refundId: number): Promise<RefundOutcome> {
  const { db, providers, now } = deps
  const refund = await findRefund(db, refundId)
  if (!refund || refund.state !== 'processing' || !refund.provider) return refund?.state ?? null
  if (!refund.sentAt) return sendRefund(deps, refundId)
  const order = (await findOrderById(db, refund.orderId))!
  const attempt = { deps, refund, at: now() }
  let status
  try {
    status = await providers[refund.provider].queryRefund({ orderNo: order.orderNo, refundNo: refund.refundNo })
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    return stillProcessing(attempt, { lastError: err.message.slice(0, 500) })
  }
  if (status.state === 'not_found') return sendRefund(deps, refundId)
  if (status.amountFen !== null && status.amountFen !== refund.amountFen)
    return stillProcessing(attempt, {
      lastError: `the provider reports ${status.amountFen} fen refunded, ours is ${refund.amountFen}`,
    })
  if (status.state === 'processing') return stillProcessing(attempt, { providerRefundId: status.providerRefundId })
  const detail = status.detail ?? 'the provider reported the refund failed'
  return settleRefund(attempt, status.state, status.providerRefundId, detail)
}

/** One send or ask at the provider: the refund it is about (processing, with a provider) and when it began. */
interface Attempt {
  deps: CommerceDeps
  refund: RefundRow
  at: Date
}

/**
 * The provider's final answer, in one transaction with the refund locked: it completes (`completeRefund`) or
 * fails (`failRefund`, with `detail`).
 */
async function settleRefund(
  { deps, refund }: Attempt,
  state: 'succeeded' | 'failed',
  providerRefundId: string | null,
  detail: string,
) {
  const actor = `provider:${refund.provider}`
  await deps.transaction(async (tx) => {
    const locked = await lockRefundByNo(tx, refund.refundNo)
    if (!locked) return
    if (state === 'succeeded') await completeRefund(tx, locked, providerRefundId, actor, deps.now(), deps.events)
    else await failRefund(tx, locked, detail, actor, deps.now())
  })
  return state
}

/**
 * An attempt that settled nothing: when it was made and what the provider said (its refund id, no error) or why
 * it could not be asked; the refund stays processing for the notification or the sweep.
 */
async function stillProcessing(
  { deps, refund, at }: Attempt,
  said: { providerRefundId: string | null } | { lastError: string },
) {
  const set = 'lastError' in said ? said : { ...said, lastError: null }
  await noteRefundAttempt(deps.db, refund.id, { sentAt: at, ...set }, at)
  return 'processing' as const
}
