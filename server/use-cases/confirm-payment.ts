import type { DbOrTx } from '#server/db/database.ts'
import type { PaymentProviderName } from '#server/db/schema/orders.ts'
import type { IncomingNotification, VerifiedPayment } from '#server/integrations/payments/payments.ts'
import { ownedCourseIds, purchaseGrantsInSettlement } from '#server/modules/access/access.service.ts'
import { couponUseInSettlement } from '#server/modules/coupons/coupons.service.ts'
import {
  lockOrderByNo,
  orderItems,
  settlePendingOrder,
  transitionOrder,
  type OrderRow,
} from '#server/modules/orders/orders.service.ts'
import {
  claimInSettlement,
  claimNotificationOnce,
  isAppliedClaimConflict,
  logReplay,
  logReplayIfApplied,
  logUnapplied,
  markNotificationOutcome,
  refuseNotification,
  RefusedNotification,
  verifyNotification,
  type NotificationAnswer,
} from '#server/modules/payments/payments.service.ts'
import { tuitionStillPayable } from '#server/modules/tuition/enrolments.service.ts'
import { earnPointsInSettlement, pointsEarnedBy } from '#server/modules/points/points.service.ts'
import { automaticRefund, openRefund } from '#server/modules/refunds/refunds.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { announcePaid, fulfilOrder } from './fulfil-order.ts'
import { orderEvents } from './order-steps.ts'
import { sendRefund } from './send-refund.ts'

/**
 * A payment notification, as received (POST /api/pay/notify/…): verified by the provider adapter (signature,
 * timestamp, decryption), then confirmed at most once; one that cannot be verified is logged with its outcome and
 * changes nothing.
 */
export async function receivePaymentNotification(
  deps: CommerceDeps,
  provider: PaymentProviderName,
  incoming: IncomingNotification,
): Promise<NotificationAnswer> {
  const n = { provider, kind: 'payment' as const, raw: incoming.body, createdAt: deps.now() }
  const checked = await verifyNotification(deps.db, n, () => deps.providers[provider].verifyPayment(incoming))
  if (checked.refused) return checked.refused
  return confirmPayment(deps, provider, checked.verified, incoming.body)
}

/**
 * A verified payment (a notification, or a provider query that found one): the order becomes paid and what it
 * buys is granted (access), its coupon used (coupons) and its points earned (points), all in one transaction with
 * the notification claimed as applied (payments), so a replay changes nothing. Money that cannot be kept (for
 * something owned by now, for a closed order whose discount is gone, a second payment) goes back through an
 * automatic refund (refunds), sent after the commit.
 */
export async function confirmPayment(
  deps: CommerceDeps,
  provider: PaymentProviderName,
  p: VerifiedPayment,
  raw: string,
): Promise<NotificationAnswer> {
  const { db, providers, now } = deps
  const base = {
    provider,
    kind: 'payment' as const,
    notificationId: p.notificationId,
    orderNo: p.orderNo,
    raw,
    createdAt: now(),
  }
  if (!p.success) {
    await logUnapplied(db, { ...base, verified: true, outcome: 'not_success', detail: 'trade not successful' })
    return { accepted: true, outcome: 'not_success' }
  }
  const cfg = providers[provider]
  if (p.appId !== cfg.appId || p.mchId !== cfg.mchId) {
    const message = `appid ${p.appId} / mchid ${p.mchId}`
    return refuseNotification(db, { ...base, verified: true }, { outcome: 'merchant_mismatch', message })
  }
  // The common case first: a pending order, the right amount, nothing owned already.
  if (await payPendingOrder(deps, provider, p, raw)) return { accepted: true, outcome: 'applied' }
  // A replay of an applied notification (committed): logged for the audit, changes nothing.
  if (await logReplayIfApplied(db, base)) return { accepted: true, outcome: 'duplicate' }
  // Everything else (a late payment, money for something owned, a second payment, a refusal, a replay of one
  // still in flight) in a transaction that claims the notification first.
  let refundToSend: number | null = null
  try {
    const outcome = await deps.transaction(async (tx) => {
      const claimed = await claimNotificationOnce(tx, base)
      if (claimed === null) return 'replay' as const
      const applied = await applyPayment(deps, tx, provider, p, claimed)
      refundToSend = applied.refundId
      return applied.outcome
    })
    // A replay of an applied notification is logged too (audit); its row cannot take the applied slot.
    if (outcome === 'replay') await logReplay(db, base, 'replay')
    if (refundToSend !== null) void sendRefund(deps, refundToSend).catch(() => {})
    return { accepted: true, outcome: outcome === 'replay' ? 'duplicate' : outcome }
  } catch (err) {
    if (!(err instanceof RefusedNotification)) throw err
    const refused = await refuseNotification(db, { ...base, verified: true }, err)
    // A genuine payment for an order we do not have changes nothing here, and asking again will not change
    // that: it is recorded for staff (GET /api/admin/payment-notifications?outcome=unknown_order, and the
    // reconciliation lists it as missing on our side) and answered as received, so that the provider stops
    // sending it (WeChat Pay retries for a day, Alipay for 25 hours). A wrong amount or merchant still fails.
    return err.outcome === 'unknown_order' ? { ...refused, accepted: true } : refused
  }
}

/**
 * The common case: an order that is pending for this amount, with at most one VIP item, none of whose courses the
 * member owns, paid in ONE statement that orders composes from each owner's part: the courses the order buys and
 * the system courses containing them (catalogue, for access's guard: nothing owned yet), the notification claimed
 * (payments), the grants (access), the coupon used (coupons), the points earned (points), the order marked paid by a
 * conditional update that concurrent deliveries serialise on, and its event. True when it was paid here; false
 * (nothing changed) when the order is not in that case, the notification was applied before (the claim fails the
 * statement) or a concurrent delivery paid it first: the general path decides then. It records exactly what the
 * general path records for this case (the fast-path test holds the two to the same rows).
 */
export async function payPendingOrder(
  deps: Pick<CommerceDeps, 'db' | 'config' | 'now' | 'events'>,
  provider: PaymentProviderName,
  p: VerifiedPayment,
  raw: string,
): Promise<boolean> {
  const { db, config, now } = deps
  const at = now()
  let paid
  try {
    paid = await settlePendingOrder(
      db,
      {
        orderNo: p.orderNo,
        amountFen: p.amountFen,
        provider,
        transactionId: p.transactionId,
        actor: `provider:${provider}`,
        data: { transaction_id: p.transactionId, notification_id: p.notificationId },
        at,
      },
      [
        claimInSettlement({
          provider,
          kind: 'payment',
          notificationId: p.notificationId,
          orderNo: p.orderNo,
          raw,
          createdAt: at,
        }),
        purchaseGrantsInSettlement(at),
        couponUseInSettlement(at),
        earnPointsInSettlement(pointsEarnedBy(p.amountFen, config.payments.points), at),
      ],
    )
  } catch (err) {
    if (isAppliedClaimConflict(err)) return false
    throw err
  }
  if (!paid) return false
  // One statement, committed: what it granted is the order's courses and its VIP days.
  announcePaid(deps.events, { orderNo: p.orderNo, memberId: paid.memberId, amountFen: p.amountFen }, provider, {
    courses: paid.courseIds,
    vip_days: paid.vipDays,
  })
  return true
}

/** The general path, inside its transaction after the claim: what this payment does to its order. */
async function applyPayment(
  deps: CommerceDeps,
  tx: DbOrTx,
  provider: PaymentProviderName,
  p: VerifiedPayment,
  claimed: number,
): Promise<{ outcome: 'applied' | 'duplicate'; refundId: number | null }> {
  const at = deps.now()
  const order = await lockOrderByNo(tx, p.orderNo)
  if (!order) throw new RefusedNotification('unknown_order', 'no such order')
  if (order.amountFen !== p.amountFen)
    throw new RefusedNotification('amount_mismatch', `paid ${p.amountFen}, order is ${order.amountFen}`)
  const events = orderEvents(tx, `provider:${provider}`, at)
  const data = { transaction_id: p.transactionId, notification_id: p.notificationId }
  if (order.state === 'pending' || order.state === 'closed') {
    // Money for an order that is open, or that we had closed: it buys what it was for, unless the member owns
    // that by now (bought it again in another order, got it from staff): then it goes back.
    const from = order.state
    // A closed order already gave its coupon and points back; its discounted price no longer stands.
    const discountGone = from === 'closed' && (order.couponId !== null || order.pointsUsed > 0)
    const owned = discountGone ? null : await ownedShare(tx, order, at)
    if (owned && owned.fen < order.amountFen) {
      const paid = (await transitionOrder(
        tx,
        order.id,
        [from],
        'paid',
        { paidAt: at, closedAt: null, provider, providerTxnId: p.transactionId },
        at,
      ))!
      const items = await orderItems(tx, [order.id])
      const except = owned.fen > 0 ? owned.courseIds : []
      const granted = await fulfilOrder(tx, paid, items, at, deps.config.payments.points, except)
      announcePaid(deps.events, paid, provider, granted)
      const paidEvent = from === 'pending' ? 'paid' : 'late_payment_reopened'
      await events.moved(order.id, from, 'paid', paidEvent, { ...data, ...granted })
      if (owned.fen === 0) return { outcome: 'applied', refundId: null }
      // Several courses, some owned by now (bought alone meanwhile): their share of the money goes back.
      await transitionOrder(tx, order.id, ['paid'], 'refunding', {}, at)
      const refund = await openRefund(tx, {
        ...automaticRefund(order, provider, p.transactionId, true, '部分课程已拥有，自动退还其差价', at),
        amountFen: owned.fen,
      })
      await events.moved(order.id, 'paid', 'refunding', 'owned_courses_refund', {
        refund_no: refund.refundNo,
        amount_fen: owned.fen,
        courses: owned.courseIds,
      })
      return { outcome: 'applied', refundId: refund.id }
    }
    await transitionOrder(
      tx,
      order.id,
      [from],
      'refunding',
      { paidAt: at, provider, providerTxnId: p.transactionId },
      at,
    )
    const reason = discountGone
      ? '订单已关闭，自动退款'
      : order.kind === 'tuition'
        ? '这笔学费已无需缴纳（已缴清或已申请退学），自动退款'
        : '课程已拥有，自动退款'
    const refund = await openRefund(tx, automaticRefund(order, provider, p.transactionId, true, reason, at))
    const refundEvent = from === 'pending' ? 'paid_but_owned_refund' : 'late_payment_refund'
    await events.moved(order.id, from, 'refunding', refundEvent, { ...data, refund_no: refund.refundNo })
    return { outcome: 'applied', refundId: refund.id }
  }
  if (order.providerTxnId === p.transactionId) {
    await markNotificationOutcome(tx, claimed, 'duplicate', 'payment already applied')
    return { outcome: 'duplicate', refundId: null }
  }
  // A second, different payment of a paid order (the member paid with another method too): refund it.
  const refund = await openRefund(
    tx,
    automaticRefund(order, provider, p.transactionId, false, '重复支付，自动退款', at),
  )
  await events.noted(order, 'double_payment_refund', { ...data, refund_no: refund.refundNo })
  return { outcome: 'applied', refundId: refund.id }
}

/**
 * What of an order the member owns already (through another order or staff): its courses, and their share of
 * what was paid (each item's price scaled by the paid amount over the original price, rounded down). The whole
 * amount when it holds courses and all are owned; 0 for VIP and amount orders.
 */
async function ownedShare(tx: DbOrTx, order: OrderRow, at: Date) {
  if (order.kind === 'vip' || order.kind === 'amount') return { fen: 0, courseIds: [] as number[] }
  // Tuition: nothing to own, but its payment may no longer be due (paid by another order, or the member exited).
  if (order.kind === 'tuition')
    return { fen: (await tuitionStillPayable(tx, order.target)) ? 0 : order.amountFen, courseIds: [] as number[] }
  const items = (await orderItems(tx, [order.id])).filter((i) => i.courseId !== null)
  const owned = await ownedCourseIds(
    tx,
    order.memberId,
    items.map((i) => i.courseId!),
    at,
  )
  const ownedItems = items.filter((i) => owned.has(i.courseId!))
  if (items.length > 0 && ownedItems.length === items.length) return { fen: order.amountFen, courseIds: [...owned] }
  const listFen = ownedItems.reduce((s, i) => s + i.priceFen, 0)
  const fen = order.originalFen > 0 ? Math.floor((listFen * order.amountFen) / order.originalFen) : 0
  return { fen, courseIds: ownedItems.map((i) => i.courseId!) }
}
