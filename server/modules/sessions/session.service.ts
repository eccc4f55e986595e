import type { DbOrTx } from '#server/db/database.ts'
import { hashToken, newToken } from '#server/http/auth.ts'
import { insertSession, markLoggedIn, revokeSession } from './session.repository.ts'

/** Tokens live 30 days (the login response's `expire_in`, in seconds). */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600

/** Platform codes of spec section 9: 1 desktop, 2 mobile browser, 3 WeChat's browser. */
export const Platforms = { desktop: 1, mobile: 2, wechat: 3 } as const

/**
 * Starts a new session for a member: a fresh 256-bit token, stored only as its hash. Every login gets a new one.
 * Pass a transaction to make it part of a larger change (a login that also consumes a code).
 */
export async function issueSession(db: DbOrTx, memberId: number, platform: number, now: Date) {
  const token = newToken()
  await insertSession(db, {
    memberId,
    tokenHash: hashToken(token),
    platform: Object.values(Platforms).includes(platform as 1 | 2 | 3) ? platform : Platforms.mobile,
    expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
  })
  await markLoggedIn(db, memberId, now)
  return { token, expire_in: SESSION_TTL_SECONDS, member_id: memberId }
}

/** Logs a session out: its token stops working at once. */
export async function endSession(db: DbOrTx, sessionId: number, now: Date) {
  await revokeSession(db, sessionId, now)
}
