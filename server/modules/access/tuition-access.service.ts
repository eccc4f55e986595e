import type { DbOrTx } from '#server/db/database.ts'
import { setTuitionGrantUntil, upsertTuitionGrant } from './grants.repository.ts'

// The access module's door for tuition (issue 15): a source in the entitlements table like every other way in,
// read by the one access function (access.service.ts) with no check of its own.

/**
 * The enrolment's programme (its system course, hence every course in it) opens until `until` (the enrolment's
 * expiry), one grant per enrolment; granting again moves its end.
 */
export function grantTuition(
  tx: DbOrTx,
  g: { memberId: number; courseId: number; enrolmentId: number; until: Date; now: Date },
) {
  return upsertTuitionGrant(tx, { ...g, sourceRef: `enrolment:${g.enrolmentId}` })
}

/**
 * Pauses (until = now) or reopens (until = the moved expiry) an enrolment's access without revoking it: progress,
 * notes and homework stay. Returns how many grants moved.
 */
export function setTuitionUntil(tx: DbOrTx, enrolmentId: number, until: Date) {
  return setTuitionGrantUntil(tx, `enrolment:${enrolmentId}`, until)
}
