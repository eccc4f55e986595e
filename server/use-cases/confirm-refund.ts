import type { NotificationOutcome } from '#server/db/schema/payments.ts'
import type { PaymentProviderName } from '#server/db/schema/orders.ts'
import { NotificationError, type IncomingNotification } from '#server/integrations/payments/payments.ts'
import {
  claimNotificationOnce,
  logUnapplied,
  markNotificationOutcome,
  RefusedNotification,
  unverifiedNotificationId,
  type NotificationAnswer,
} from '#server/modules/payments/payments.service.ts'
import { lockRefundByNo } from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { completeRefund, failRefund } from './complete-refund.ts'

/**
 * A refund notification (WeChat Pay; POST /api/pay/notify/wechat/refund): verified, then applied once in one
 * transaction with the notification claimed (payments): the refund completes (`completeRefund`: the order moves,
 * a full refund takes back what it gave) or fails. A refusal (unknown refund, other amount) is logged and
 * changes nothing.
 */
export async function receiveRefundNotification(
  deps: CommerceDeps,
  provider: PaymentProviderName,
  incoming: IncomingNotification,
): Promise<NotificationAnswer> {
  const { db, now } = deps
  const log = (
    outcome: NotificationOutcome,
    detail: string,
    notificationId: string,
    orderNo: string | null,
    verified: boolean,
  ) =>
    logUnapplied(db, {
      provider,
      kind: 'refund',
      notificationId,
      orderNo,
      raw: incoming.body,
      verified,
      outcome,
      detail,
      createdAt: now(),
    })
  const adapter = deps.providers[provider]
  if (!adapter.verifyRefund)
    return { accepted: false, outcome: 'bad_body', detail: 'this provider sends no refund notifications' }
  let r
  try {
    r = await adapter.verifyRefund(incoming)
  } catch (err) {
    if (!(err instanceof NotificationError)) throw err
    await log(err.outcome, err.message, unverifiedNotificationId(), null, false)
    return { accepted: false, outcome: err.outcome, detail: err.message }
  }
  const actor = `provider:${provider}`
  try {
    const outcome = await deps.transaction(async (tx) => {
      const claimed = await claimNotificationOnce(tx, {
        provider,
        kind: 'refund',
        notificationId: r.notificationId,
        orderNo: r.orderNo,
        raw: incoming.body,
        createdAt: now(),
      })
      if (claimed === null) return 'duplicate' as const
      const refund = await lockRefundByNo(tx, r.refundNo)
      if (!refund) throw new RefusedNotification('unknown_order', `no refund ${r.refundNo}`)
      if (refund.amountFen !== r.amountFen)
        throw new RefusedNotification('amount_mismatch', `refunded ${r.amountFen}, refund is ${refund.amountFen}`)
      if (r.state === 'succeeded') await completeRefund(tx, refund, r.providerRefundId, actor, now(), deps.events)
      else if (r.state === 'failed')
        await failRefund(tx, refund, 'the provider reported the refund failed', actor, now())
      else await markNotificationOutcome(tx, claimed, 'not_success', 'refund still processing')
      return 'applied' as const
    })
    if (outcome === 'duplicate') await log('duplicate', '', r.notificationId, r.orderNo, true).catch(() => {})
    return { accepted: true, outcome }
  } catch (err) {
    if (!(err instanceof RefusedNotification)) throw err
    await log(err.outcome, err.message, r.notificationId, r.orderNo, true)
    return { accepted: false, outcome: err.outcome, detail: err.message }
  }
}
