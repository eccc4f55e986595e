import { setTuitionUntil } from '#server/modules/access/tuition-access.service.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { providerOf } from '#server/integrations/payments/payments.ts'
import { findPendingOrder, lockOrderById, lockOrderByNo } from '#server/modules/orders/orders.service.ts'
import { newRefundNo, openRefund } from '#server/modules/refunds/refunds.service.ts'
import { dueTuitionTargets, ownEnrolment } from '#server/modules/tuition/enrolments.service.ts'
import { resumeEnrolment, pauseEnrolment } from '#server/modules/tuition/enrolment-care.service.ts'
import {
  approveExitRequest,
  exitableEnrolment,
  exitQuote,
  recordExitRequest,
} from '#server/modules/tuition/exit.service.ts'
import { approveRefund } from './approve-refund.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { closePendingOrder, orderEvents } from './order-steps.ts'

// Pause and exit of an enrolment (issue 15 §4): access follows (tuition grant), money goes back through refunds.

/** 休学: pauses the member's enrolment for `days`; access stops now (not revoked) until it resumes. */
export async function pauseTuition(deps: CommerceDeps, memberId: number, enrolmentId: number, days: number) {
  const at = deps.now()
  await deps.transaction(async (tx) => {
    await pauseEnrolment(tx, memberId, enrolmentId, days, at)
    await setTuitionUntil(tx, enrolmentId, at)
  })
  return { enrolment_id: enrolmentId, pause_until: new Date(at.getTime() + days * 86_400_000).toISOString() }
}

/** Resumes early (the member) or at the pause's end (the sweep: no member): the expiry moves by the days paused. */
export async function resumeTuition(deps: CommerceDeps, enrolmentId: number, memberId?: number) {
  const at = deps.now()
  return deps.transaction(async (tx) => {
    const { expiresAt } = await resumeEnrolment(
      tx,
      enrolmentId,
      memberId ? `member:${memberId}` : 'system',
      at,
      memberId,
    )
    if (expiresAt) await setTuitionUntil(tx, enrolmentId, expiresAt)
    return { enrolment_id: enrolmentId, expires_at: expiresAt?.toISOString() ?? null }
  })
}

/** GET /course/exit: what exit gives back now under the contract's rule, before the member confirms. */
export async function quoteExit(deps: CommerceDeps, memberId: number, enrolmentId: number) {
  return exitQuote(deps.db, await exitableEnrolment(deps.db, memberId, enrolmentId), deps.now())
}

/** The member's pending orders for an enrolment's payments still due (locked when `lock`). */
async function pendingTuitionOrders(tx: DbOrTx, memberId: number, enrolmentId: number, lock: boolean) {
  const found = []
  for (const target of await dueTuitionTargets(tx, enrolmentId)) {
    const pending = await findPendingOrder(tx, memberId, 'tuition', target)
    if (pending) found.push(lock ? ((await lockOrderById(tx, pending.id)) ?? pending) : pending)
  }
  return found
}

/**
 * POST /course/exit: the member confirms the amount they saw; staff decide. In the same transaction every pending
 * tuition order of the enrolment closes (orders' close), so it cannot be paid after; its provider is told after
 * the commit. Locks in a payment's order: those orders first, then the enrolment (a payment being confirmed holds
 * its order and then wants the enrolment). A payment that won answers Conflict here (the amount changed); one
 * that arrives for a closed order goes back (confirm-payment's late payment: the payment is no longer due).
 */
export async function requestExit(deps: CommerceDeps, memberId: number, enrolmentId: number, seenFen: number) {
  await ownEnrolment(deps.db, memberId, enrolmentId)
  const at = deps.now()
  const actor = `member:${memberId}`
  const { quote, closed } = await deps.transaction(async (tx) => {
    await pendingTuitionOrders(tx, memberId, enrolmentId, true)
    const recorded = await recordExitRequest(tx, memberId, enrolmentId, seenFen, at)
    // Under the enrolment's lock no new order opens (the checkout re-checks under it): close what is there now.
    const shut = []
    for (const o of await pendingTuitionOrders(tx, memberId, enrolmentId, false)) {
      const c = await closePendingOrder(tx, o.id, 'enrolment_exit', { actor, at, data: { enrolment_id: enrolmentId } })
      if (c) shut.push(c)
    }
    return { quote: recorded, closed: shut }
  })
  for (const o of closed) {
    const provider = providerOf(o.payMethod)
    // Best effort, as for a replaced order: a payment that still arrives is refunded as a late payment.
    if (provider) await deps.providers[provider].close(o.orderNo).catch(() => {})
  }
  return quote
}

/**
 * Staff approve an exit: in one transaction the enrolment is exited, its access ends and one refund per payment
 * (its share of the amount, newest payment first) is opened on that payment's order; then each goes through the
 * existing approval (the order to refunding, the money to the provider), recorded with who.
 */
export async function approveExit(deps: CommerceDeps, staffId: number, enrolmentId: number) {
  const at = deps.now()
  const refunds = await deps.transaction(async (tx) => {
    const approved = await approveExitRequest(tx, enrolmentId, staffId, at)
    await setTuitionUntil(tx, enrolmentId, at)
    const opened: { refundNo: string; fen: number }[] = []
    for (const p of approved.payments) {
      const order = (await lockOrderByNo(tx, p.order_no))!
      const refund = await openRefund(tx, {
        refundNo: newRefundNo(),
        orderId: order.id,
        memberId: approved.memberId,
        kind: 'member',
        provider: order.provider,
        providerTxnId: order.providerTxnId,
        paymentFen: order.amountFen,
        amountFen: p.fen,
        reason: '退学退费（按合同退费规则）',
        state: 'requested',
        createdAt: at,
        updatedAt: at,
      })
      await orderEvents(tx, `admin:${staffId}`, at).noted(order, 'refund_requested', {
        refund_no: refund.refundNo,
        amount_fen: p.fen,
        enrolment_id: enrolmentId,
      })
      opened.push({ refundNo: refund.refundNo, fen: p.fen })
    }
    return opened
  })
  const sent = []
  // The approval gives back what is left of an order unless told the amount: each refund is its payment's share.
  for (const r of refunds) sent.push(await approveRefund(deps, staffId, r.refundNo, { amountFen: r.fen }))
  return {
    enrolment_id: enrolmentId,
    refunds: sent.map((r) => ({ refund_no: r.refund_no, amount_fen: r.amount_fen, state: r.state })),
  }
}
