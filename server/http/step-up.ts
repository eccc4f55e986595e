import crypto from 'node:crypto'
import { STEP_UP_SECONDS } from '#shared/staff/roles.ts'

/**
 * Step-up proofs: after a staff member confirms a fresh SMS code (POST /api/admin/step-up), they get a proof for
 * their session that sensitive actions (refund approval, role changes, exports) require in `X-Step-Up`. The proof
 * is an HMAC of the session's token hash and its expiry, so it is worthless with another token and after
 * STEP_UP_SECONDS; it needs no table. Within its life it may be used again (one confirmation for a batch of
 * approvals), which is the point of a short life.
 */
export function createStepUp(secret: string, now: () => Date) {
  const key = crypto.createHmac('sha256', secret).update('zixue step-up proof v1').digest()
  const sign = (tokenHash: string, exp: number) =>
    crypto.createHmac('sha256', key).update(`${tokenHash}:${exp}`).digest('base64url')
  return {
    /** A proof for the session with this token hash, valid for STEP_UP_SECONDS from now. */
    mint(tokenHash: string) {
      const exp = Math.floor(now().getTime() / 1000) + STEP_UP_SECONDS
      return { proof: `${exp}.${sign(tokenHash, exp)}`, expires_in: STEP_UP_SECONDS }
    },
    /** Whether the proof was minted for this session and has not expired. */
    verify(proof: string | undefined, tokenHash: string) {
      const m = /^(\d{10})\.([\w-]{43})$/.exec(proof ?? '')
      if (!m) return false
      const exp = Number(m[1])
      if (exp * 1000 <= now().getTime()) return false
      const expected = Buffer.from(sign(tokenHash, exp))
      const given = Buffer.from(m[2]!)
      return expected.length === given.length && crypto.timingSafeEqual(expected, given)
    },
  }
}

export type StepUp = ReturnType<typeof createStepUp>
