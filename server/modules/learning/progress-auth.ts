import { hashToken } from '#server/http/auth.ts'
import { resolveToken } from '#server/modules/sessions/session.service.ts'
import type { Db } from '#server/db/database.ts'

/**
 * Who sent a progress save whose token travels in the body (POST /update_play_data, /video/updateFreeData).
 * These are the hottest writes — one every 10 s per learner — and the session lookup would cost as much as the
 * save itself, so which member and session a token names is remembered for `ttlMs` in this process. Whether the
 * session is still live is NOT remembered: the save's own statement checks it (learning.repository.ts), so a
 * logout on any instance stops the saves at once. Unknown tokens are never remembered. See
 * docs/decisions/2026-11-22-progress-saves.md and docs/decisions/2026-11-25-hardening-sign-in.md.
 */
export function createProgressAuth(deps: { db: Db; now: () => Date; ttlMs?: number; maxEntries?: number }) {
  const ttlMs = deps.ttlMs ?? 60_000
  const maxEntries = deps.maxEntries ?? 100_000
  const sessions = new Map<string, { memberId: number; sessionId: number; until: number }>()

  return {
    /** The member, or why not: `unknown` (301) or `expired` (504). */
    async resolve(
      token: string,
    ): Promise<{ memberId: number; sessionId: number } | { problem: 'unknown' | 'expired' }> {
      const key = hashToken(token)
      const now = deps.now()
      const hit = sessions.get(key)
      if (hit && hit.until > now.getTime()) return { memberId: hit.memberId, sessionId: hit.sessionId }
      const { principal, problem } = await resolveToken(deps.db, token, now)
      if (!principal) {
        sessions.delete(key)
        return { problem: problem ?? 'unknown' }
      }
      sessions.delete(key)
      if (sessions.size >= maxEntries) sessions.delete(sessions.keys().next().value!)
      const { memberId, sessionId } = principal
      sessions.set(key, { memberId, sessionId, until: now.getTime() + ttlMs })
      return { memberId, sessionId }
    },
    /** Forgets a token whose session turned out dead. */
    forget(token: string) {
      sessions.delete(hashToken(token))
    },
  }
}
