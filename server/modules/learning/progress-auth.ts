import { hashToken } from '#server/http/auth.ts'
import { resolveToken } from '#server/modules/sessions/session.service.ts'
import type { Db } from '#server/db/database.ts'

/**
 * Who sent a progress save whose token travels in the body (POST /update_play_data, /video/updateFreeData).
 * These are the hottest writes — one every 10 s per learner — and the session lookup would cost as much as the
 * save itself, so a valid session is remembered for `ttlMs` in this process. The price: a session revoked (logout)
 * or expiring meanwhile can still save progress in that process for at most `ttlMs`, and nothing else — every
 * other endpoint checks the session on each request. Unknown tokens are never remembered. See
 * docs/decisions/2026-11-22-progress-saves.md.
 */
export function createProgressAuth(deps: { db: Db; now: () => Date; ttlMs?: number; maxEntries?: number }) {
  const ttlMs = deps.ttlMs ?? 60_000
  const maxEntries = deps.maxEntries ?? 100_000
  const sessions = new Map<string, { memberId: number; until: number }>()

  return {
    /** The member, or why not: `unknown` (301) or `expired` (504). */
    async resolve(token: string): Promise<{ memberId: number } | { problem: 'unknown' | 'expired' }> {
      const key = hashToken(token)
      const now = deps.now()
      const hit = sessions.get(key)
      if (hit && hit.until > now.getTime()) return { memberId: hit.memberId }
      const { principal, problem } = await resolveToken(deps.db, token, now)
      if (!principal) {
        sessions.delete(key)
        return { problem: problem ?? 'unknown' }
      }
      sessions.delete(key)
      if (sessions.size >= maxEntries) sessions.delete(sessions.keys().next().value!)
      sessions.set(key, { memberId: principal.memberId, until: now.getTime() + ttlMs })
      return { memberId: principal.memberId }
    },
  }
}
