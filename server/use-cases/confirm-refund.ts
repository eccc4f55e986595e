import type { PaymentProviderName } from '#server/db/schema/orders.ts'
import type { IncomingNotification } from '#server/integrations/payments/payments.ts'
import {
  claimNotificationOnce,
  logReplay,
  markNotificationOutcome,
  refuseNotification,
  RefusedNotification,
  verifyNotification,
  type NotificationAnswer,
  type NotificationRecord,
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
  const adapter = deps.providers[provider]
  if (!adapter.verifyRefund)
    return { accepted: false, outcome: 'bad_body', detail: 'this provider sends no refund notifications' }
  const n = { provider, kind: 'refund' as const, raw: incoming.body, createdAt: now() }
  const checked = await verifyNotification(db, n, () => adapter.verifyRefund!(incoming))
  if (checked.refused) return checked.refused
  const r = checked.verified
  const actor = `provider:${provider}`
  // Each write is stamped when it happens (the claim, then a refusal or replay log).
  const notification = (): NotificationRecord => ({
    provider,
    kind: 'refund',
    notificationId: r.notificationId,
    orderNo: r.orderNo,
    raw: incoming.body,
    createdAt: now(),
  })
  try {
    const outcome = await deps.transaction(async (tx) => {
      const claimed = await claimNotificationOnce(tx, notification())
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
    if (outcome === 'duplicate') await logReplay(db, notification(), '')
    return { accepted: true, outcome }
  } catch (err) {
    if (!(err instanceof RefusedNotification)) throw err
    return refuseNotification(db, { ...notification(), verified: true }, err)
  }
}
