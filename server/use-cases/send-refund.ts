import { ProviderError } from '#server/integrations/payments/payments.ts'
import { findOrderById } from '#server/modules/orders/orders.service.ts'
import { notifyUrl } from '#server/modules/payments/payments.service.ts'
import { findRefund, lockRefundByNo, noteRefundAttempt } from '#server/modules/refunds/refunds.service.ts'
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
  const attemptAt = now()
  const actor = `provider:${refund.provider}`
  try {
    const result = await providers[refund.provider].refund({
      orderNo: order.orderNo,
      refundNo: refund.refundNo,
      amountFen: refund.amountFen,
      totalFen: refund.paymentFen,
      reason: refund.reason,
      notifyUrl: notifyUrl(deps.config.publicUrl, `${refund.provider}/refund`),
    })
    if (result.state === 'succeeded') {
      await deps.transaction(async (tx) => {
        const locked = await lockRefundByNo(tx, refund.refundNo)
        if (locked) await completeRefund(tx, locked, result.providerRefundId, actor, now(), deps.events)
      })
      return 'succeeded'
    }
    if (result.state === 'failed') {
      await deps.transaction(async (tx) => {
        const locked = await lockRefundByNo(tx, refund.refundNo)
        if (locked) await failRefund(tx, locked, result.detail ?? 'refused by the provider', actor, now())
      })
      return 'failed'
    }
    await noteRefundAttempt(
      db,
      refund.id,
      { sentAt: attemptAt, providerRefundId: result.providerRefundId, lastError: null },
      attemptAt,
    )
    return 'processing'
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    await noteRefundAttempt(db, refund.id, { sentAt: attemptAt, lastError: err.message.slice(0, 500) }, attemptAt)
    return 'processing'
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
  const attemptAt = now()
  const actor = `provider:${refund.provider}`
  let status
  try {
    status = await providers[refund.provider].queryRefund({ orderNo: order.orderNo, refundNo: refund.refundNo })
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err
    await noteRefundAttempt(db, refund.id, { sentAt: attemptAt, lastError: err.message.slice(0, 500) }, attemptAt)
    return 'processing'
  }
  if (status.state === 'not_found') return sendRefund(deps, refundId)
  if (status.amountFen !== null && status.amountFen !== refund.amountFen) {
    const lastError = `the provider reports ${status.amountFen} fen refunded, ours is ${refund.amountFen}`
    await noteRefundAttempt(db, refund.id, { sentAt: attemptAt, lastError }, attemptAt)
    return 'processing'
  }
  if (status.state === 'succeeded' || status.state === 'failed') {
    const final = status
    await deps.transaction(async (tx) => {
      const locked = await lockRefundByNo(tx, refund.refundNo)
      if (!locked) return
      if (final.state === 'succeeded')
        await completeRefund(tx, locked, final.providerRefundId, actor, now(), deps.events)
      else await failRefund(tx, locked, final.detail ?? 'the provider reported the refund failed', actor, now())
    })
    return status.state
  }
  await noteRefundAttempt(
    db,
    refund.id,
    { sentAt: attemptAt, providerRefundId: status.providerRefundId, lastError: null },
    attemptAt,
  )
  return 'processing'
}
