import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { AuthService } from '#server/modules/auth/auth.service.ts'
import { mergeRefusalFor } from '#server/modules/members/members-merge.service.ts'
import { memberByPhone, normalizePhone, profileOf, setPhone } from '#server/modules/members/members.service.ts'
import { issueSession, Platforms } from '#server/modules/sessions/session.service.ts'
import { mergeMembers } from './merge-members.ts'

export interface BindPhoneDeps {
  db: Db
  now: () => Date
  auth: Pick<AuthService, 'verifyBindCode'>
}

/**
 * POST /bind_phone (spec 7, issue 10 §3): after the SMS code, the signed-in member gets the phone. When another
 * member already holds it, the code proved the person owns both, so the two become one member: the phone's holder
 * survives and absorbs the signed-in member (server/use-cases/merge-members.ts), all in one transaction with the
 * code's use. The signed-in member's token then ends with the rest of its sessions, so the answer carries a new
 * token for the survivor (`token`, `expire_in`, `merged: true`).
 */
export async function bindPhone(
  deps: BindPhoneDeps,
  memberId: number,
  input: { phone: string; phone_code: string; platform?: number },
) {
  const now = deps.now()
  // A holder who cannot be merged is refused before the code is tried, so no attempt is spent on it.
  const holder = await memberByPhone(deps.db, normalizePhone(input.phone))
  const refusal = holder && holder.id !== memberId ? await mergeRefusalFor(deps.db, holder.id, memberId) : null
  if (refusal) throw new AppError(Codes.PhoneTaken, refusal)
  const result = await deps.db.transaction(async (tx) => {
    const verified = await deps.auth.verifyBindCode(tx, memberId, input, now)
    if (!verified.ok) return verified
    const owner = await memberByPhone(tx, verified.phone)
    if (!owner) {
      await setPhone(tx, memberId, verified.phone, now)
      return { ok: true as const, memberId, session: null }
    }
    if (owner.id === memberId) return { ok: true as const, memberId, session: null }
    await mergeMembers(tx, { survivorId: owner.id, absorbedId: memberId, reason: 'bind_phone', now })
    const session = await issueSession(tx, owner.id, input.platform ?? Platforms.wechat, now)
    return { ok: true as const, memberId: owner.id, session }
  })
  if (!result.ok) throw result.error
  const profile = await profileOf(deps.db, result.memberId)
  if (!profile) throw new AppError(Codes.NotLoggedIn)
  return result.session
    ? { ...profile, merged: true, token: result.session.token, expire_in: result.session.expire_in }
    : { ...profile, merged: false }
}
