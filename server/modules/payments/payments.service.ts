import crypto from 'node:crypto'
import type { Config } from '#server/config.ts'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { OrderState, PaymentProviderName } from '#server/db/schema/orders.ts'
import type { NotificationOutcome } from '#server/db/schema/payments.ts'
import {
  NotificationError,
  ProviderError,
  providerOf,
  type IncomingNotification,
  type PaymentProviders,
  type VerifiedPayment,
} from '#server/integrations/payments/payments.ts'
import { pointsEarned } from '#server/modules/coupons/pricing.ts'
import { grantOrder, releaseBenefits, revokeOrder } from '#server/modules/orders/fulfilment.ts'
import {
  findItems,
  findOrderById,
  insertOrderEvent,
  lockOrderById,
  lockOrderByNo,
  ownedCourseIds,
  payPendingOrder,
  transitionOrder,
  type OrderRow,
} from '#server/modules/orders/orders.repository.ts'
import {
  claimNotification,
  deleteIdempotencyKeysBefore,
  findExpiredPending,
  findRefund,
  findRefundsToSend,
  findUnansweredPending,
  insertRefund,
  lockRefundByNo,
  logIfReplay,
  logNotification,
  markNotification,
  noteRefundAttempt,
  storedRaw,
  transitionRefund,
  type RefundRow,
} from './payments.repository.ts'

export interface PaymentDeps {
  db: Db
  config: Config
  providers: PaymentProviders
  now: () => Date
}

/** What a notification endpoint answers the provider: accepted (stop sending) or not (send again). */
export interface NotificationAnswer {
  accepted: boolean
  outcome: NotificationOutcome
  detail?: string
}

/** A verified notification that must not change anything: rolled back, then logged. */
class Refused extends Error {
  readonly outcome: NotificationOutcome
  constructor(outcome: NotificationOutcome, detail: string) {
    super(detail)
    this.outcome = outcome
  }
}

/**
 * The unique index on applied notifications refused a claim (PostgreSQL unique_violation on it); drizzle may wrap
 * the driver's error, keeping it as `cause`.
 */
function isAppliedClaimConflict(err: unknown): boolean {
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 3; e = (e as { cause?: unknown }).cause, i++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505' && constraint === 'payment_notifications_applied_key') return true
  }
  return false
}

/** How long a sent refund waits for its final answer before it is asked about again. */
const REFUND_RESEND_MS = 60_000
/** A pending order is asked about at the provider once it is this old and no notification came. */
export const RECONCILE_AFTER_MS = 2 * 60_000
const IDEMPOTENCY_KEEP_MS = 24 * 3600_000

export function refundNo() {
  return `RF${Date.now().toString().slice(-10)}${crypto.randomInt(0, 1e8).toString().padStart(8, '0')}`
}

/**
 * Payments after checkout: notifications from the providers, the state changes they make and the grants that go
 * with them, refunds at the provider, and the sweeps that close expired orders and ask the provider about
 * orders whose notification did not come. Every change is a conditional update inside a transaction together
 * with its order event and grants; docs/decisions/2026-11-22-orders-and-payments.md explains the rules.
 */
export function createPaymentService(deps: PaymentDeps) {
  const { db, config, providers, now } = deps
  const notifyUrl = (path: string) => `${config.publicUrl}/api/pay/notify/${path}`

  async function applyVerifiedPayment(
    provider: PaymentProviderName,
    p: VerifiedPayment,
    raw: string,
  ): Promise<NotificationAnswer> {
    const base = {
      provider,
      kind: 'payment' as const,
      notificationId: p.notificationId,
      orderNo: p.orderNo,
      raw,
      createdAt: now(),
    }
    if (!p.success) {
      await logNotification(db, { ...base, verified: true, outcome: 'not_success', detail: 'trade not successful' })
      return { accepted: true, outcome: 'not_success' }
    }
    const cfg = providers[provider]
    if (p.appId !== cfg.appId || p.mchId !== cfg.mchId) {
      const detail = `appid ${p.appId} / mchid ${p.mchId}`
      await logNotification(db, { ...base, verified: true, outcome: 'merchant_mismatch', detail })
      return { accepted: false, outcome: 'merchant_mismatch', detail }
    }
    // The common case first, in one statement: a pending order, the right amount, nothing owned already.
    if (await payPending(provider, p, raw)) return { accepted: true, outcome: 'applied' }
    // A replay of an applied notification (committed): logged for the audit, changes nothing.
    if (await logIfReplay(db, base)) return { accepted: true, outcome: 'duplicate' }
    // Everything else (a late payment, money for something owned, a second payment, a refusal, a replay of one
    // still in flight) in a transaction that claims the notification first.
    let refundToSend: number | null = null
    try {
      const outcome = await db.transaction(async (tx) => {
        const at = now()
        const claimed = await claimNotification(tx, base)
        if (claimed === null) return 'replay' as const
        const order = await lockOrderByNo(tx, p.orderNo)
        if (!order) throw new Refused('unknown_order', 'no such order')
        if (order.amountFen !== p.amountFen)
          throw new Refused('amount_mismatch', `paid ${p.amountFen}, order is ${order.amountFen}`)
        const actor = `provider:${provider}`
        const data = { transaction_id: p.transactionId, notification_id: p.notificationId }
        if (order.state === 'pending' || order.state === 'closed') {
          // Money for an order that is open, or that we had closed: it buys what it was for, unless the member
          // owns that by now (bought it again in another order, got it from staff): then it goes back.
          const from = order.state
          // A closed order already gave its coupon and points back; its discounted price no longer stands.
          const discountGone = from === 'closed' && (order.couponId !== null || order.pointsUsed > 0)
          const owned = discountGone ? null : await ownedShare(tx, order, at)
          if (owned && owned.fen < order.amountFen) {
            const paid = await transitionOrder(
              tx,
              order.id,
              [from],
              'paid',
              { paidAt: at, closedAt: null, provider, providerTxnId: p.transactionId },
              at,
            )
            const granted = await grantOrder(
              tx,
              paid!,
              at,
              config.payments.points,
              owned.fen > 0 ? owned.courseIds : [],
            )
            const reason = from === 'pending' ? 'paid' : 'late_payment_reopened'
            await insertOrderEvent(tx, {
              orderId: order.id,
              fromState: from,
              toState: 'paid',
              reason,
              actor,
              data: { ...data, ...granted },
              createdAt: at,
            })
            if (owned.fen > 0) {
              // Several courses, some owned by now (bought alone meanwhile): their share of the money goes back.
              await transitionOrder(tx, order.id, ['paid'], 'refunding', {}, at)
              const refund = await insertRefund(tx, {
                ...automaticRefund(order, provider, p.transactionId, true, '部分课程已拥有，自动退还其差价', at),
                amountFen: owned.fen,
              })
              await insertOrderEvent(tx, {
                orderId: order.id,
                fromState: 'paid',
                toState: 'refunding',
                reason: 'owned_courses_refund',
                actor,
                data: { refund_no: refund.refundNo, amount_fen: owned.fen, courses: owned.courseIds },
                createdAt: at,
              })
              refundToSend = refund.id
            }
            return 'applied' as const
          }
          await transitionOrder(
            tx,
            order.id,
            [from],
            'refunding',
            { paidAt: at, provider, providerTxnId: p.transactionId },
            at,
          )
          const refund = await insertRefund(
            tx,
            automaticRefund(
              order,
              provider,
              p.transactionId,
              true,
              discountGone ? '订单已关闭，自动退款' : '课程已拥有，自动退款',
              at,
            ),
          )
          const reason = from === 'pending' ? 'paid_but_owned_refund' : 'late_payment_refund'
          await insertOrderEvent(tx, {
            orderId: order.id,
            fromState: from,
            toState: 'refunding',
            reason,
            actor,
            data: { ...data, refund_no: refund.refundNo },
            createdAt: at,
          })
          refundToSend = refund.id
          return 'applied' as const
        }
        if (order.providerTxnId === p.transactionId) {
          await markNotification(tx, claimed, 'duplicate', 'payment already applied')
          return 'duplicate' as const
        }
        // A second, different payment of a paid order (the member paid with another method too): refund it.
        const refund = await insertRefund(
          tx,
          automaticRefund(order, provider, p.transactionId, false, '重复支付，自动退款', at),
        )
        await insertOrderEvent(tx, {
          orderId: order.id,
          fromState: order.state,
          toState: order.state,
          reason: 'double_payment_refund',
          actor,
          data: { ...data, refund_no: refund.refundNo },
          createdAt: at,
        })
        refundToSend = refund.id
        return 'applied' as const
      })
      // A replay of an applied notification is logged too (audit); its row cannot take the applied slot.
      if (outcome === 'replay')
        await logNotification(db, { ...base, verified: true, outcome: 'duplicate', detail: 'replay' }).catch(() => {})
      if (refundToSend !== null) void sendRefund(refundToSend).catch(() => {})
      return { accepted: true, outcome: outcome === 'replay' ? 'duplicate' : outcome }
    } catch (err) {
      if (!(err instanceof Refused)) throw err
      await logNotification(db, { ...base, verified: true, outcome: err.outcome, detail: err.message })
      return { accepted: false, outcome: err.outcome, detail: err.message }
    }
  }

  /**
   * `payPendingOrder` (one statement: transition, notification claim, grants, event) for this payment. False when
   * the order is not a plain pending one for this amount, or when the notification was applied already (the
   * unique index refuses the claim and the whole statement rolls back): the general path decides then.
   */
  async function payPending(provider: PaymentProviderName, p: VerifiedPayment, raw: string) {
    try {
      const paid = await payPendingOrder(db, {
        orderNo: p.orderNo,
        amountFen: p.amountFen,
        provider,
        transactionId: p.transactionId,
        notificationId: p.notificationId,
        raw: storedRaw(raw),
        actor: `provider:${provider}`,
        pointsEarned: pointsEarned(p.amountFen, config.payments.points),
        at: now(),
      })
      return paid !== null
    } catch (err) {
      if (isAppliedClaimConflict(err)) return false
      throw err
    }
  }

  /**
   * What of an order the member owns already (through another order or staff): its courses, and their share of
   * what was paid (each item's price scaled by the paid amount over the original price, rounded down). The whole
   * amount when it holds courses and all are owned; 0 for VIP and amount orders.
   */
  async function ownedShare(tx: DbOrTx, order: OrderRow, at: Date) {
    if (order.kind === 'vip' || order.kind === 'amount') return { fen: 0, courseIds: [] as number[] }
    const items = (await findItems(tx, [order.id])).filter((i) => i.courseId !== null)
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

  function automaticRefund(
    order: OrderRow,
    provider: PaymentProviderName,
    txn: string,
    movesOrder: boolean,
    reason: string,
    at: Date,
  ) {
    return {
      refundNo: refundNo(),
      orderId: order.id,
      memberId: order.memberId,
      kind: 'automatic' as const,
      provider,
      providerTxnId: txn,
      paymentFen: order.amountFen,
      amountFen: order.amountFen,
      reason,
      state: 'processing' as const,
      movesOrder,
      createdAt: at,
      updatedAt: at,
    }
  }

  /** Finishes a refund the provider confirmed: the order moves on and, for a full refund, its grants are revoked. */
  async function completeRefund(tx: DbOrTx, refund: RefundRow, providerRefundId: string | null, actor: string) {
    const at = now()
    const done = await transitionRefund(
      tx,
      refund.id,
      ['processing'],
      'succeeded',
      { completedAt: at, providerRefundId: providerRefundId ?? refund.providerRefundId, lastError: null },
      at,
    )
    if (!done || !refund.movesOrder) return Boolean(done)
    const order = (await lockOrderById(tx, refund.orderId))!
    const refunded = order.refundedFen + refund.amountFen
    const to: OrderState = refunded >= order.amountFen ? 'refunded' : 'partially_refunded'
    const moved = await transitionOrder(tx, order.id, ['refunding'], to, { refundedFen: refunded }, at)
    if (!moved) return true
    const revoked = to === 'refunded' ? await revokeOrder(tx, moved, at, actor) : {}
    await insertOrderEvent(tx, {
      orderId: order.id,
      fromState: 'refunding',
      toState: to,
      reason: 'refund_succeeded',
      actor,
      data: { refund_no: refund.refundNo, amount_fen: refund.amountFen, ...revoked },
      createdAt: at,
    })
    return true
  }

  async function failRefund(tx: DbOrTx, refund: RefundRow, detail: string, actor: string) {
    const at = now()
    const failed = await transitionRefund(
      tx,
      refund.id,
      ['processing'],
      'failed',
      { lastError: detail.slice(0, 500) },
      at,
    )
    if (!failed || !refund.movesOrder || refund.kind !== 'member') return
    // A member refund the provider refused: the order is paid again and staff see the failed refund.
    const order = (await lockOrderById(tx, refund.orderId))!
    const back: OrderState = order.refundedFen > 0 ? 'partially_refunded' : 'paid'
    if (await transitionOrder(tx, order.id, ['refunding'], back, {}, at)) {
      await insertOrderEvent(tx, {
        orderId: order.id,
        fromState: 'refunding',
        toState: back,
        reason: 'refund_failed',
        actor,
        data: { refund_no: refund.refundNo, detail },
        createdAt: at,
      })
    }
  }

  /** Sends (or sends again: same refund number, so the provider does not pay twice) one refund. */
  async function sendRefund(refundId: number) {
    const refund = await findRefund(db, refundId)
    if (!refund || refund.state !== 'processing' || !refund.provider) return refund?.state ?? null
    const order = (await findOrderById(db, refund.orderId))!
    const attemptAt = now()
    try {
      const result = await providers[refund.provider].refund({
        orderNo: order.orderNo,
        refundNo: refund.refundNo,
        amountFen: refund.amountFen,
        totalFen: refund.paymentFen,
        reason: refund.reason,
        notifyUrl: notifyUrl(`${refund.provider}/refund`),
      })
      if (result.state === 'succeeded') {
        await db.transaction(async (tx) => {
          const locked = await lockRefundByNo(tx, refund.refundNo)
          if (locked) await completeRefund(tx, locked, result.providerRefundId, `provider:${refund.provider}`)
        })
        return 'succeeded'
      }
      if (result.state === 'failed') {
        await db.transaction(async (tx) => {
          const locked = await lockRefundByNo(tx, refund.refundNo)
          if (locked)
            await failRefund(tx, locked, result.detail ?? 'refused by the provider', `provider:${refund.provider}`)
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
   * it as the provider says, or sends it again, with the same number, when the provider never got it.
   */
  async function checkRefund(refundId: number) {
    const refund = await findRefund(db, refundId)
    if (!refund || refund.state !== 'processing' || !refund.provider) return refund?.state ?? null
    if (!refund.sentAt) return sendRefund(refundId)
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
    if (status.state === 'not_found') return sendRefund(refundId)
    if (status.amountFen !== null && status.amountFen !== refund.amountFen) {
      // Never complete a refund for another amount than ours: staff look at it.
      await noteRefundAttempt(
        db,
        refund.id,
        {
          sentAt: attemptAt,
          lastError: `the provider reports ${status.amountFen} fen refunded, ours is ${refund.amountFen}`,
        },
        attemptAt,
      )
      return 'processing'
    }
    if (status.state === 'succeeded' || status.state === 'failed') {
      await db.transaction(async (tx) => {
        const locked = await lockRefundByNo(tx, refund.refundNo)
        if (!locked) return
        if (status.state === 'succeeded') await completeRefund(tx, locked, status.providerRefundId, actor)
        else await failRefund(tx, locked, status.detail ?? 'the provider reported the refund failed', actor)
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

  /** Asks the provider about one pending (or just closed) order and applies a payment it reports. */
  async function reconcile(order: OrderRow): Promise<'paid' | 'unpaid' | 'error'> {
    const provider = providerOf(order.payMethod)
    if (!provider) return 'unpaid'
    try {
      const trade = await providers[provider].query(order.orderNo)
      if ((trade.state !== 'paid' && trade.state !== 'refunded') || !trade.transactionId || trade.amountFen === null)
        return 'unpaid'
      const answer = await applyVerifiedPayment(
        provider,
        {
          notificationId: `query:${trade.transactionId}`,
          orderNo: order.orderNo,
          success: true,
          transactionId: trade.transactionId,
          amountFen: trade.amountFen,
          appId: trade.appId ?? providers[provider].appId,
          mchId: trade.mchId ?? providers[provider].mchId,
          paidAt: trade.paidAt ?? now(),
        },
        JSON.stringify({ source: 'order query', trade }),
      )
      return answer.accepted ? 'paid' : 'error'
    } catch (err) {
      if (err instanceof ProviderError) return 'error'
      throw err
    }
  }

  return {
    /** The provider's notify URL for payments and refunds. */
    notifyUrl,

    /**
     * A payment notification, as received. Verified (signature, timestamp, decryption), then applied at most
     * once; a refused one is logged with its outcome and changes nothing.
     */
    async handlePaymentNotification(
      provider: PaymentProviderName,
      incoming: IncomingNotification,
    ): Promise<NotificationAnswer> {
      let verified: VerifiedPayment
      try {
        verified = await providers[provider].verifyPayment(incoming)
      } catch (err) {
        if (!(err instanceof NotificationError)) throw err
        await logNotification(db, {
          provider,
          kind: 'payment',
          notificationId: `unverified:${crypto.randomUUID()}`,
          orderNo: null,
          raw: incoming.body,
          verified: false,
          outcome: err.outcome,
          detail: err.message,
          createdAt: now(),
        })
        return { accepted: false, outcome: err.outcome, detail: err.message }
      }
      return applyVerifiedPayment(provider, verified, incoming.body)
    },

    /** A refund notification (WeChat Pay): completes or fails the refund, once. */
    async handleRefundNotification(
      provider: PaymentProviderName,
      incoming: IncomingNotification,
    ): Promise<NotificationAnswer> {
      const log = (
        outcome: NotificationOutcome,
        detail: string,
        notificationId: string,
        orderNo: string | null,
        verifiedFlag: boolean,
      ) =>
        logNotification(db, {
          provider,
          kind: 'refund',
          notificationId,
          orderNo,
          raw: incoming.body,
          verified: verifiedFlag,
          outcome,
          detail,
          createdAt: now(),
        })
      const p = providers[provider]
      if (!p.verifyRefund)
        return { accepted: false, outcome: 'bad_body', detail: 'this provider sends no refund notifications' }
      let r
      try {
        r = await p.verifyRefund(incoming)
      } catch (err) {
        if (!(err instanceof NotificationError)) throw err
        await log(err.outcome, err.message, `unverified:${crypto.randomUUID()}`, null, false)
        return { accepted: false, outcome: err.outcome, detail: err.message }
      }
      try {
        const outcome = await db.transaction(async (tx) => {
          const claimed = await claimNotification(tx, {
            provider,
            kind: 'refund',
            notificationId: r.notificationId,
            orderNo: r.orderNo,
            raw: incoming.body,
            createdAt: now(),
          })
          if (claimed === null) return 'duplicate' as const
          const refund = await lockRefundByNo(tx, r.refundNo)
          if (!refund) throw new Refused('unknown_order', `no refund ${r.refundNo}`)
          if (refund.amountFen !== r.amountFen)
            throw new Refused('amount_mismatch', `refunded ${r.amountFen}, refund is ${refund.amountFen}`)
          if (r.state === 'succeeded') await completeRefund(tx, refund, r.providerRefundId, `provider:${provider}`)
          else if (r.state === 'failed')
            await failRefund(tx, refund, 'the provider reported the refund failed', `provider:${provider}`)
          else await markNotification(tx, claimed, 'not_success', 'refund still processing')
          return 'applied' as const
        })
        if (outcome === 'duplicate') await log('duplicate', '', r.notificationId, r.orderNo, true).catch(() => {})
        return { accepted: true, outcome }
      } catch (err) {
        if (!(err instanceof Refused)) throw err
        await log(err.outcome, err.message, r.notificationId, r.orderNo, true)
        return { accepted: false, outcome: err.outcome, detail: err.message }
      }
    },

    /** Asks the provider about an order the member is waiting on (the /payRedirect poll). */
    reconcile,

    sendRefund,

    checkRefund,

    /** Closes pending orders past their expiry, at the provider first; a payment found on the way is applied. */
    async closeExpired(limit = 50) {
      let closed = 0
      for (const order of await findExpiredPending(db, now(), limit)) {
        const provider = providerOf(order.payMethod)
        if (provider) {
          const state = await reconcile(order)
          if (state === 'paid') continue
          if (state === 'error') continue
          try {
            await providers[provider].close(order.orderNo)
          } catch (err) {
            if (!(err instanceof ProviderError)) throw err
            // Paid in the meantime: the next sweep (or the notification) applies it.
            continue
          }
        }
        const at = now()
        const done = await db.transaction(async (tx) => {
          const row = await transitionOrder(tx, order.id, ['pending'], 'closed', { closedAt: at }, at)
          if (!row) return false
          const released = await releaseBenefits(tx, row, at, 'system')
          await insertOrderEvent(tx, {
            orderId: order.id,
            fromState: 'pending',
            toState: 'closed',
            reason: 'expired',
            actor: 'system',
            data: released,
            createdAt: at,
          })
          return true
        })
        if (done) closed++
      }
      return closed
    },

    /** Asks the provider about pending orders whose notification is overdue. */
    async reconcilePending(limit = 50) {
      let paid = 0
      for (const order of await findUnansweredPending(
        db,
        new Date(now().getTime() - RECONCILE_AFTER_MS),
        now(),
        limit,
      )) {
        if ((await reconcile(order)) === 'paid') paid++
      }
      return paid
    },

    /**
     * Sends refunds that are approved but not sent; asks the provider about refunds sent without a final answer
     * for a while (and sends again, same number, those it never got).
     */
    async sendPendingRefunds(limit = 20) {
      const rows = await findRefundsToSend(db, new Date(now().getTime() - REFUND_RESEND_MS), limit)
      for (const r of rows) await (r.sentAt ? checkRefund(r.id) : sendRefund(r.id))
      return rows.length
    },

    async pruneIdempotencyKeys() {
      await deleteIdempotencyKeysBefore(db, new Date(now().getTime() - IDEMPOTENCY_KEEP_MS))
    },
  }
}

export type PaymentService = ReturnType<typeof createPaymentService>
