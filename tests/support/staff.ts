import { DEV_SMS_CODE_PEPPER } from '#server/config.ts'
import { hashToken } from '#server/http/auth.ts'
import { createStepUp } from '#server/http/step-up.ts'
import { STEP_UP_HEADER } from '#shared/staff/roles.ts'

/** Far enough ahead of any test clock that the proof is still live whenever the server checks it. */
const LATE = new Date(Date.UTC(2099, 0, 1))

/**
 * The step-up header a staff member gets after confirming an SMS code (POST /api/admin/step-up), signed the way the
 * server signs it with the development pepper, for tests of other features that approve refunds or export.
 * server/modules/auth/step-up.test.ts goes through the SMS itself.
 */
export function stepUpHeaders(token: string) {
  return { [STEP_UP_HEADER]: createStepUp(DEV_SMS_CODE_PEPPER, () => LATE).mint(hashToken(token)).proof }
}
