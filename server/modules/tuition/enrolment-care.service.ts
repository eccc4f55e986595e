import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  enrolmentsOverdue,
  lockEnrolment,
  lockSchedulePayment,
  scheduleOf,
  setDueAt,
  transitionEnrolment,
} from './enrolments.repository.ts'
import { logEnrolment } from './enrolments.service.ts'
import { pastGrace } from './tuition-rules.ts'

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
  if (e.dueAt <= e.at) throw new AppError(Codes.BadRequest, '新的到期日须晚于现在（due_at）')
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
