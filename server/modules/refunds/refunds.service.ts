import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { RefundState } from '#server/db/schema/refunds.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes, type CodeEntry } from '#server/http/codes.ts'
import { providerOf } from '#server/integrations/payments/payments.ts'
import { revokeOrder } from '#server/modules/orders/fulfilment.ts'
import {
  findItems,
  findOrderById,
  findOrderByNo,
  insertOrderEvent,
  lockOrderById,
  transitionOrder,
  type OrderRow,
} from '#server/modules/orders/orders.repository.ts'
import {
  insertRefund,
  lockRefundByNo,
  transitionRefund,
  type RefundRow,
} from '#server/modules/payments/payments.repository.ts'
import { refundNo, type PaymentService } from '#server/modules/payments/payments.service.ts'
import {
  findRefundByNo,
  listRefundsForStaff,
  markRefundRetried,
  refundsOfOrder,
  watchedPercent,
} from './refunds.repository.ts'
import type { RefundCheck, RefundView } from './refunds.schema.ts'

export interface RefundDeps {
  db: Db
  config: Config
  payments: PaymentService
  now: () => Date
}

const DAY = 86_400_000

/** An order paid with points and/or a coupon alone: its refund moves no money and needs no provider. */
function paidWithoutMoney(order: OrderRow) {
  return order.amountFen === 0 && (order.payMethod === 'points' || order.payMethod === 'free')
}

/** A unique index refused the row (drizzle may wrap the driver's error, keeping it as `cause`). */
function isUniqueViolation(err: unknown) {
  return (err as { cause?: { code?: string } }).cause?.code === '23505' || (err as { code?: string }).code === '23505'
}

export function toRefundView(r: RefundRow, orderNo: string): z.infer<typeof RefundView> {
  return {
    refund_no: r.refundNo,
    order_no: orderNo,
    kind: r.kind,
    state: r.state,
    amount_fen: r.amountFen,
    reason: r.reason,
    decision_note: r.decisionNote,
    created_at: r.createdAt.toISOString(),
    decided_at: r.decidedAt?.toISOString() ?? null,
    completed_at: r.completedAt?.toISOString() ?? null,
  }
}

/**
 * Refunds a member asks for and an operator decides: the rules (paid, within the window, course watched under
 * the limit, one open request at a time), the decision with who and when, and the refund at the provider.
 */
export function createRefundService(deps: RefundDeps) {
  const { db, config, payments, now } = deps
  const { refundWindowDays, refundMaxWatchedPercent } = config.payments

  /** Why this order cannot be refunded now, or null. */
  async function refusal(
    order: OrderRow,
    open: boolean,
  ): Promise<{ entry: CodeEntry; msg?: string; watched: number | null }> {
    const items = await findItems(db, [order.id])
    const courseIds = items.flatMap((i) => (i.courseId === null ? [] : [i.courseId]))
    const watched = courseIds.length > 0 ? await watchedPercent(db, order.memberId, courseIds) : null
    if (open) return { entry: Codes.RefundExists, watched }
    const paidByProvider = providerOf(order.payMethod) !== null && order.amountFen - order.refundedFen > 0
    if (
      !['paid', 'partially_refunded'].includes(order.state) ||
      !order.paidAt ||
      !(paidByProvider || paidWithoutMoney(order))
    ) {
      return { entry: Codes.RefundNotAllowed, watched }
    }
    if (now().getTime() > order.paidAt.getTime() + refundWindowDays * DAY) {
      return { entry: Codes.RefundWindowPassed, msg: `已超过 ${refundWindowDays} 天退款期限`, watched }
    }
    if (watched !== null && watched >= refundMaxWatchedPercent) {
      return {
        entry: Codes.RefundWatchedTooMuch,
        msg: `课程已观看 ${watched}%，超过 ${refundMaxWatchedPercent}% 后不能退款`,
        watched,
      }
    }
    return { entry: Codes.Ok, watched }
  }

  async function ownOrder(memberId: number, orderNo: string) {
    const order = await findOrderByNo(db, orderNo)
    if (!order || order.memberId !== memberId) throw new AppError(Codes.NotFound, '订单不存在')
    return order
  }

  return {
    /** What the refund screen shows: whether this order can be refunded now and why not, and its refunds so far. */
    async check(memberId: number, orderNo: string): Promise<z.infer<typeof RefundCheck>> {
      const order = await ownOrder(memberId, orderNo)
      const rows = await refundsOfOrder(db, order.id)
      const open = rows.some((r) => r.kind === 'member' && (r.state === 'requested' || r.state === 'processing'))
      const why = await refusal(order, open)
      return {
        order_no: order.orderNo,
        refundable: why.entry === Codes.Ok,
        code: why.entry.code,
        msg: why.msg ?? why.entry.msg,
        amount_fen: order.amountFen - order.refundedFen,
        points_used: order.pointsUsed,
        window_days: refundWindowDays,
        deadline: order.paidAt ? new Date(order.paidAt.getTime() + refundWindowDays * DAY).toISOString() : null,
        max_watched_percent: refundMaxWatchedPercent,
        watched_percent: why.watched,
        refunds: rows.filter((r) => r.kind === 'member').map((r) => toRefundView(r, order.orderNo)),
      }
    },

    /** A member asks for the whole remaining amount back, with a reason; an operator decides. */
    async request(memberId: number, orderNo: string, reason: string) {
      const order = await ownOrder(memberId, orderNo)
      const rows = await refundsOfOrder(db, order.id)
      const why = await refusal(
        order,
        rows.some((r) => r.kind === 'member' && (r.state === 'requested' || r.state === 'processing')),
      )
      if (why.entry !== Codes.Ok) throw new AppError(why.entry, why.msg)
      const at = now()
      try {
        const row = await db.transaction(async (tx) => {
          const locked = await lockOrderById(tx, order.id)
          if (!locked || !['paid', 'partially_refunded'].includes(locked.state))
            throw new AppError(Codes.RefundNotAllowed)
          const refund = await insertRefund(tx, {
            refundNo: refundNo(),
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
          await insertOrderEvent(tx, {
            orderId: order.id,
            fromState: locked.state,
            toState: locked.state,
            reason: 'refund_requested',
            actor: `member:${memberId}`,
            data: { refund_no: refund.refundNo, reason },
            createdAt: at,
          })
          return refund
        })
        return toRefundView(row, order.orderNo)
      } catch (err) {
        // Two requests at once: the partial unique index lets one in.
        if (isUniqueViolation(err)) throw new AppError(Codes.RefundExists)
        throw err
      }
    },

    /** Refunds for operators, newest first, optionally in one state. */
    async listForStaff(filter: { state?: RefundState; cursor?: number; limit: number }) {
      const rows = await listRefundsForStaff(db, {
        states: filter.state ? [filter.state] : undefined,
        before: filter.cursor,
        limit: filter.limit + 1,
      })
      const page = rows.slice(0, filter.limit)
      return {
        list: page.map((r) => ({
          ...toRefundView(r.refund, r.orderNo),
          order_title: r.orderTitle,
          order_amount_fen: r.orderAmountFen,
          member_id: r.refund.memberId,
          phone: r.phone,
          last_error: r.refund.lastError,
          retryable: r.refund.state === 'failed' && r.refund.provider !== null,
          retries: r.refund.retries,
          retried_by: r.refund.retriedBy,
          retried_at: r.refund.retriedAt?.toISOString() ?? null,
        })),
        next_cursor: rows.length > filter.limit ? page[page.length - 1]!.refund.id : null,
      }
    },

    /**
     * An operator approves a request (all of it, or `amountFen` of it): the order goes to refunding, the refund to
     * the provider; the answer or the provider's notification completes it. An order paid with points and coupons
     * alone completes at once (no money moves): its points and coupon come back and its grants go. Recorded with
     * who and when.
     */
    async approve(staffId: number, refundNoValue: string, input: { amountFen?: number; note?: string }) {
      const at = now()
      const refund = await db.transaction(async (tx) => {
        const r = await lockRefundByNo(tx, refundNoValue)
        if (!r || r.kind !== 'member') throw new AppError(Codes.NotFound, '退款申请不存在')
        if (r.state !== 'requested') throw new AppError(Codes.RefundDecided)
        const order = (await lockOrderById(tx, r.orderId))!
        const remaining = order.amountFen - order.refundedFen
        const amount = input.amountFen ?? remaining
        if (amount > remaining)
          throw new AppError(Codes.BadRequest, `退款金额不能超过可退金额 ${remaining} 分（amount_fen）`)
        const moved = await transitionOrder(tx, order.id, ['paid', 'partially_refunded'], 'refunding', {}, at)
        if (!moved) throw new AppError(Codes.RefundNotAllowed)
        const approved = await transitionRefund(
          tx,
          r.id,
          ['requested'],
          'processing',
          { amountFen: amount, decidedBy: staffId, decidedAt: at, decisionNote: input.note ?? null },
          at,
        )
        await insertOrderEvent(tx, {
          orderId: order.id,
          fromState: order.state,
          toState: 'refunding',
          reason: 'refund_approved',
          actor: `admin:${staffId}`,
          data: { refund_no: r.refundNo, amount_fen: amount },
          createdAt: at,
        })
        if (approved!.provider === null) await completeWithoutProvider(tx, approved!, moved, `admin:${staffId}`, at)
        return approved!
      })
      if (refund.provider !== null) await payments.sendRefund(refund.id)
      const [latest, order] = await Promise.all([
        findRefundByNo(db, refund.refundNo),
        findOrderById(db, refund.orderId),
      ])
      return toRefundView(latest!, order!.orderNo)
    },

    /**
     * An operator sends a failed refund to the provider again, with the same refund number (the provider treats
     * it as the same refund, so money cannot go twice). A member's refund takes its order back to refunding, for
     * no more than is still refundable. Recorded on the refund (who, when, how many times) and in the order's events.
     */
    async retry(staffId: number, refundNoValue: string) {
      const at = now()
      let refund: RefundRow
      try {
        refund = await db.transaction(async (tx) => {
          const r = await lockRefundByNo(tx, refundNoValue)
          if (!r) throw new AppError(Codes.NotFound, '退款不存在')
          if (r.state !== 'failed' || r.provider === null) throw new AppError(Codes.RefundNotRetryable)
          const order = (await lockOrderById(tx, r.orderId))!
          let toState = order.state
          if (r.kind === 'member') {
            if (order.amountFen - order.refundedFen < r.amountFen)
              throw new AppError(Codes.RefundNotAllowed, '订单可退金额已变化，请让会员重新申请')
            if (!(await transitionOrder(tx, order.id, ['paid', 'partially_refunded'], 'refunding', {}, at)))
              throw new AppError(Codes.RefundNotAllowed)
            toState = 'refunding'
          }
          const retried = await markRefundRetried(tx, r.id, staffId, at)
          if (!retried) throw new AppError(Codes.RefundNotRetryable)
          await insertOrderEvent(tx, {
            orderId: order.id,
            fromState: order.state,
            toState,
            reason: 'refund_retried',
            actor: `admin:${staffId}`,
            data: { refund_no: r.refundNo, amount_fen: r.amountFen, last_error: r.lastError },
            createdAt: at,
          })
          return retried
        })
      } catch (err) {
        // The member asked again meanwhile: one open request per order.
        if (isUniqueViolation(err)) throw new AppError(Codes.RefundExists)
        throw err
      }
      await payments.sendRefund(refund.id)
      const [latest, order] = await Promise.all([
        findRefundByNo(db, refund.refundNo),
        findOrderById(db, refund.orderId),
      ])
      return toRefundView(latest!, order!.orderNo)
    },

    /** An operator turns a request down with a note the member sees. */
    async reject(staffId: number, refundNoValue: string, note: string) {
      const at = now()
      return db.transaction(async (tx) => {
        const r = await lockRefundByNo(tx, refundNoValue)
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
        await insertOrderEvent(tx, {
          orderId: order.id,
          fromState: order.state,
          toState: order.state,
          reason: 'refund_rejected',
          actor: `admin:${staffId}`,
          data: { refund_no: r.refundNo, note },
          createdAt: at,
        })
        return toRefundView(rejected, order.orderNo)
      })
    },
  }
}

/**
 * Completes an approved refund of an order paid with points and coupons alone, inside the approval's
 * transaction: nothing to send, so the refund succeeds and the order is refunded at once, giving back its points
 * and coupon and taking back what it granted.
 */
async function completeWithoutProvider(tx: DbOrTx, refund: RefundRow, order: OrderRow, actor: string, at: Date) {
  await transitionRefund(tx, refund.id, ['processing'], 'succeeded', { completedAt: at }, at)
  const refunded = (await transitionOrder(tx, order.id, ['refunding'], 'refunded', {}, at))!
  const revoked = await revokeOrder(tx, refunded, at, actor)
  await insertOrderEvent(tx, {
    orderId: order.id,
    fromState: 'refunding',
    toState: 'refunded',
    reason: 'refund_succeeded',
    actor,
    data: { refund_no: refund.refundNo, amount_fen: 0, without_provider: true, ...revoked },
    createdAt: at,
  })
}

export type RefundService = ReturnType<typeof createRefundService>
