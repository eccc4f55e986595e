import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  enrolmentsOverdue,
  enrolmentsPausedUntil,
  lockEnrolment,
  lockSchedulePayment,
  scheduleOf,
  setDueAt,
  transitionEnrolment,
} from './enrolments.repository.ts'
import { logEnrolment } from './enrolments.service.ts'
import { findPlan } from './programme.repository.ts'
import { daysBetween, pastGrace } from './tuition-rules.ts'

// Overdue tuition and staff extensions (issue 15 §3): a payment overdue past the grace period pauses access (the
// enrolment becomes overdue) until it is paid or its date is moved.

/** Enrolments the overdue sweep should look at: a due payment older than the grace period. */
export function overdueCandidates(db: DbOrTx, now: Date, graceDays: number, limit: number) {
  return enrolmentsOverdue(db, new Date(now.getTime() - graceDays * 86_400_000), limit)
}

/**
 * Staff move a due payment's date, with the reason; the enrolment's log records who, why, and the dates. When
 * nothing is overdue past the grace period any more, an overdue enrolment is running again: returned so that the
 * caller reopens access until the expiry.
 */
export async function extendDueDate(
  tx: DbOrTx,
  e: { paymentId: number; dueAt: Date; reason: string; staffId: number; at: Date; graceDays: number },
) {
  const payment = await lockSchedulePayment(tx, e.paymentId)
  if (!payment) throw new AppError(Codes.NotFound, `学费 ${e.paymentId} 不存在`)
  if (payment.state !== 'due') throw new AppError(Codes.TuitionPaid)
  const enrolment = (await lockEnrolment(tx, payment.enrolmentId))!
  if (enrolment.state === 'exited') throw new AppError(Codes.EnrolmentStateInvalid)
  if (e.dueAt <= e.at) throw new AppError(Codes.BadRequest, '新的到期日须晚于现在', { field: 'due_at' })
  await setDueAt(tx, payment.id, e.dueAt)
  const actor = `admin:${e.staffId}`
  const data = {
    payment_id: payment.id,
    from: payment.dueAt?.toISOString() ?? null,
    to: e.dueAt.toISOString(),
    reason: e.reason,
    staff_id: e.staffId,
  }
  const stillLate = (await scheduleOf(tx, [enrolment.id])).some((p) => pastGrace(p, e.at, e.graceDays))
  const resumes = enrolment.state === 'overdue' && !stillLate
  const to = resumes ? (enrolment.startedAt ? 'paying' : 'signed') : enrolment.state
  if (resumes) await transitionEnrolment(tx, enrolment.id, ['overdue'], to, {}, e.at)
  await logEnrolment(tx, { id: enrolment.id, from: enrolment.state, to, reason: 'due_extended', actor, at: e.at }, data)
  return {
    payment_id: payment.id,
    due_at: e.dueAt.toISOString(),
    reopen: resumes && enrolment.expiresAt ? { enrolmentId: enrolment.id, until: enrolment.expiresAt } : null,
  }
}

const DAY_MS = 86_400_000

/**
 * 休学 (issue 15 §4): the member pauses a running enrolment for `days`, within what the plan allows in total
 * (PauseTooLong otherwise). Returns the enrolment; the caller ends access now (not revoked).
 */
export async function pauseEnrolment(tx: DbOrTx, memberId: number, id: number, days: number, at: Date) {
  const e = await lockEnrolment(tx, id)
  if (!e || e.memberId !== memberId) throw new AppError(Codes.NotFound, '报名记录不存在')
  if (!['paying', 'enrolled'].includes(e.state) || e.exitRequestedAt) throw new AppError(Codes.EnrolmentStateInvalid)
  const plan = (await findPlan(tx, e.planId))!
  const left = plan.maxPauseDays - e.pausedDays
  if (days > left)
    throw new AppError(Codes.PauseTooLong, `休学时长超过合同允许的上限，还可休学 ${Math.max(0, left)} 天`)
  const until = new Date(at.getTime() + days * DAY_MS)
  await transitionEnrolment(tx, id, [e.state], 'paused', { pausedAt: at, pauseUntil: until }, at)
  await logEnrolment(
    tx,
    { id, from: e.state, to: 'paused', reason: 'paused', actor: `member:${memberId}`, at },
    { days },
  )
  return e
}

/**
 * Resumes a paused enrolment (early, by the member, or when the pause ends): the days actually paused (whole
 * days, at least one) move the expiry; the enrolment is running again. Returns the moved expiry for access.
 */
export async function resumeEnrolment(tx: DbOrTx, id: number, actor: string, at: Date, memberId?: number) {
  const e = await lockEnrolment(tx, id)
  if (!e || (memberId !== undefined && e.memberId !== memberId)) throw new AppError(Codes.NotFound, '报名记录不存在')
  if (e.state !== 'paused' || !e.pausedAt) throw new AppError(Codes.EnrolmentStateInvalid)
  const end = e.pauseUntil && e.pauseUntil < at ? e.pauseUntil : at
  const days = Math.max(1, daysBetween(e.pausedAt, end))
  const complete = (await scheduleOf(tx, [id])).every((p) => p.state !== 'due')
  const expiresAt = e.expiresAt ? new Date(e.expiresAt.getTime() + days * DAY_MS) : null
  const to = complete ? 'enrolled' : 'paying'
  await transitionEnrolment(
    tx,
    id,
    ['paused'],
    to,
    { pausedAt: null, pauseUntil: null, pausedDays: e.pausedDays + days, expiresAt },
    at,
  )
  await logEnrolment(
    tx,
    { id, from: 'paused', to, reason: 'resumed', actor, at },
    { days, expires_at: expiresAt?.toISOString() },
  )
  return { expiresAt }
}

/** Paused enrolments whose pause has ended (the sweep resumes them). */
export function pausesEnded(db: DbOrTx, now: Date, limit: number) {
  return enrolmentsPausedUntil(db, now, limit)
}
