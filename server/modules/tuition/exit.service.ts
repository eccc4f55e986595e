import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { contractOfEnrolment } from './contracts.repository.ts'
import {
  addScheduleRefund,
  findEnrolment,
  lockEnrolment,
  patchEnrolment,
  scheduleOf,
  transitionEnrolment,
  type EnrolmentRow,
} from './enrolments.repository.ts'
import { logEnrolment } from './enrolments.service.ts'
import { findPlan } from './programme.repository.ts'
import { daysBetween, exitRefundFen, refundByPayment } from './tuition-rules.ts'

// 退学 (issue 15 §4): what the contract's refund rule gives back, the member's request, staff approval.

/** Days of the programme used by `now`: since access opened, less the days paused (a running pause included). */
function usedDays(e: EnrolmentRow, now: Date) {
  if (!e.startedAt) return 0
  const pausing = e.state === 'paused' && e.pausedAt ? daysBetween(e.pausedAt, now) : 0
  return Math.max(0, daysBetween(e.startedAt, now) - e.pausedDays - pausing)
}

/**
 * What exit gives back now under the rule frozen in the signed contract (else the plan's): the unused share of
 * what was paid less the fee, in fen, never more than was paid; and how it splits over the payments (newest first).
 */
export async function exitQuote(db: DbOrTx, e: EnrolmentRow, now: Date) {
  const [plan, contract, schedule] = await Promise.all([
    findPlan(db, e.planId),
    contractOfEnrolment(db, e.id),
    scheduleOf(db, [e.id]),
  ])
  const rule = contract?.refundRule ?? { exit_fee_fen: plan!.exitFeeFen, study_days: plan!.studyDays }
  const paid = schedule.filter((p) => p.state === 'paid' && p.orderNo)
  const paidFen = paid.reduce((s, p) => s + p.amountFen - p.refundedFen, 0)
  const used = usedDays(e, now)
  const refund = exitRefundFen({ paidFen, studyDays: rule.study_days, usedDays: used, exitFeeFen: rule.exit_fee_fen })
  const split = refundByPayment(
    refund,
    paid.map((p) => ({ id: p.id, refundableFen: p.amountFen - p.refundedFen })),
  )
  return {
    enrolment_id: e.id,
    paid_fen: paidFen,
    study_days: rule.study_days,
    used_days: used,
    exit_fee_fen: rule.exit_fee_fen,
    refund_fen: refund,
    payments: split.map((s) => ({ payment_id: s.id, order_no: paid.find((p) => p.id === s.id)!.orderNo!, fen: s.fen })),
  }
}

/** The member's own enrolment that may still exit (NotFound / EnrolmentStateInvalid). */
export async function exitableEnrolment(db: DbOrTx, memberId: number, id: number) {
  const e = await findEnrolment(db, id)
  if (!e || e.memberId !== memberId) throw new AppError(Codes.NotFound, '报名记录不存在')
  if (e.state === 'exited' || e.exitRequestedAt) throw new AppError(Codes.EnrolmentStateInvalid, '已申请退学')
  return e
}

/**
 * Records the member's exit request with the amount the rule gives (the quote computed again under the lock:
 * Conflict when it changed since the member saw it). Returns the quote.
 */
export async function recordExitRequest(tx: DbOrTx, memberId: number, id: number, seenFen: number, at: Date) {
  const e = await lockEnrolment(tx, id)
  if (!e || e.memberId !== memberId) throw new AppError(Codes.NotFound, '报名记录不存在')
  if (e.state === 'exited' || e.exitRequestedAt) throw new AppError(Codes.EnrolmentStateInvalid, '已申请退学')
  const quote = await exitQuote(tx, e, at)
  if (quote.refund_fen !== seenFen) throw new AppError(Codes.Conflict, '可退金额已变化，请刷新后重新确认')
  await patchEnrolment(tx, id, { exitRequestedAt: at, exitRefundFen: quote.refund_fen }, at)
  await logEnrolment(
    tx,
    { id, from: e.state, to: e.state, reason: 'exit_requested', actor: `member:${memberId}`, at },
    { refund_fen: quote.refund_fen, used_days: quote.used_days, payments: quote.payments },
  )
  return quote
}

/**
 * Staff approve an exit: the enrolment is exited (its access ends; the caller moves the grant), and each payment's
 * share is noted as refunded on the schedule. Returns the member and the shares, for the refunds.
 */
export async function approveExitRequest(tx: DbOrTx, id: number, staffId: number, at: Date) {
  const e = await lockEnrolment(tx, id)
  if (!e) throw new AppError(Codes.NotFound, '报名记录不存在')
  if (e.state === 'exited' || !e.exitRequestedAt)
    throw new AppError(Codes.EnrolmentStateInvalid, '没有待审核的退学申请')
  const quote = await exitQuote(tx, e, e.exitRequestedAt)
  await transitionEnrolment(tx, id, [e.state], 'exited', { exitedAt: at, pausedAt: null, pauseUntil: null }, at)
  for (const p of quote.payments) await addScheduleRefund(tx, p.payment_id, p.fen)
  await logEnrolment(
    tx,
    { id, from: e.state, to: 'exited', reason: 'exited', actor: `admin:${staffId}`, at },
    { refund_fen: quote.refund_fen, payments: quote.payments },
  )
  return { memberId: e.memberId, payments: quote.payments }
}
