import { LRUCache } from 'lru-cache'
import { hearingSince, onInvalidation } from '#server/http/public-cache.ts'

// The session a token names, remembered by the token lookup (docs/decisions/2026-11-27-session-cache.md). A row is
// served from memory only while nothing can have changed it unseen:
// - every change to a session row, by any process or by hand, drops it everywhere: a trigger on `sessions` sends
//   the tag `session:<token hash>` on the cache bus when the change commits (migration 0033);
// - a change this process makes keeps it out of memory here at once, before the change commits, until every
//   process has heard (`sessionsChanged`), so the answer to a logout is never followed by a request the old row lets
//   through;
// - while this process's cache bus is not listening, every lookup reads the database, and the whole cache is
//   dropped whenever the bus stops or starts listening (public-cache.ts `hearingSince`);
// - a read that was under way when a drop arrived is not kept (it may have read the row before the change).
// Expiry is still checked on every request against the row's `expires_at`; the TTL only bounds how long an entry
// is kept.

/** A session as the token lookup reads it (session.repository.ts `findSessionByTokenHash`). */
export interface SessionRow {
  sessionId: number
  memberId: number
  createdAt: Date
  expiresAt: Date
  revokedAt: Date | null
}

const TAG = 'session:'

/** The tag the trigger sends when a session changes. */
export const sessionTag = (tokenHash: string) => TAG + tokenHash

/** Long enough for any revoking transaction to commit and its notification to reach every process. */
const CHANGING_MS = 60_000

/**
 * Token hashes of sessions this process revoked lately: read from the database, never kept, for CHANGING_MS.
 * Per process, like the caches they guard.
 */
const changing = new LRUCache<string, true>({ max: 10_000, ttl: CHANGING_MS })

/**
 * This process has just changed these sessions (by their token hashes), in a transaction that may not have
 * committed yet: the token lookup stops serving them from memory now, until every process has heard of the change.
 */
export function sessionsChanged(tokenHashes: readonly string[]) {
  for (const tokenHash of tokenHashes) changing.set(tokenHash, true)
}

export interface SessionCache {
  /** The row for a token hash: remembered, or `load`ed (and remembered when it may be). */
  get(tokenHash: string, load: (tokenHash: string) => Promise<SessionRow | null>): Promise<SessionRow | null>
}

/** A bounded cache of sessions by token hash (`max` rows, each kept at most `ttlMs`). */
export function createSessionCache(options: { max: number; ttlMs: number }): SessionCache {
  const rows = new LRUCache<string, SessionRow>({ max: options.max, ttl: options.ttlMs })
  /** Counts drops, so that a load under way when one happened is not kept. */
  let drops = 0
  onInvalidation(
    (tags) => {
      for (const tag of tags) {
        if (!tag.startsWith(TAG)) continue
        rows.delete(tag.slice(TAG.length))
        drops++
      }
    },
    () => {
      rows.clear()
      drops++
    },
  )
  /** The hearingSince() the rows were read under: when it changes, they are all dropped. */
  let hearing: number | null = null
  return {
    async get(tokenHash, load) {
      const heard = hearingSince()
      if (heard !== hearing) {
        rows.clear()
        drops++
        hearing = heard
      }
      if (heard === null || changing.has(tokenHash)) return load(tokenHash)
      const hit = rows.get(tokenHash)
      if (hit) return hit
      const before = drops
      const row = await load(tokenHash)
      if (row && drops === before && hearingSince() === heard && !changing.has(tokenHash)) rows.set(tokenHash, row)
      return row
    },
  }
}
