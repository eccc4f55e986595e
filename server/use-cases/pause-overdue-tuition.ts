import { setTuitionUntil } from '#server/modules/access/tuition-access.service.ts'
import { extendDueDate, overdueCandidates } from '#server/modules/tuition/enrolment-care.service.ts'
import { markOverdue } from '#server/modules/tuition/enrolments.service.ts'
import type { TuitionDeps } from './offer-enrolment.ts'

export interface OverdueDeps extends TuitionDeps {
  graceDays: number
}

/**
 * The overdue sweep (issue 15 §3): every enrolment with a payment overdue past the grace period becomes overdue
 * and its access pauses (the grant ends now, not revoked: progress, notes and homework stay), each in its own
 * transaction. Paying the payment (fulfil-order) or a staff extension reopens it. Returns how many it paused.
 */
export async function pauseOverdueTuition(deps: OverdueDeps, limit = 200) {
  const now = deps.now()
  let paused = 0
  for (const id of await overdueCandidates(deps.db, now, deps.graceDays, limit)) {
    const moved = await deps.db.transaction(async (tx) => {
      if (!(await markOverdue(tx, id, now, deps.graceDays))) return false
      await setTuitionUntil(tx, id, now)
      return true
    })
    if (moved) paused++
  }
  return paused
}

/** Staff extend a due date (who and why in the enrolment's log); an overdue enrolment that is clear reopens. */
export async function extendTuitionDue(
  deps: OverdueDeps,
  staffId: number,
  paymentId: number,
  body: { due_at: string; reason: string },
) {
  const at = deps.now()
  return deps.db.transaction(async (tx) => {
    const r = await extendDueDate(tx, {
      paymentId,
      dueAt: new Date(body.due_at),
      reason: body.reason,
      staffId,
      at,
      graceDays: deps.graceDays,
    })
    if (r.reopen) await setTuitionUntil(tx, r.reopen.enrolmentId, r.reopen.until)
    return { payment_id: r.payment_id, due_at: r.due_at }
  })
}
