import { LRUCache } from 'lru-cache'
import { ALL_SESSIONS_TAG, hearingEpoch, onInvalidation, SESSION_TAG_PREFIX } from '#server/http/public-cache.ts'

// The session a token names, remembered by the token lookup (docs/decisions/2026-11-27-session-cache.md). A row is
// served from memory only while nothing can have changed it unseen:
// - every change to a session row, by any process or by hand, drops it everywhere: a trigger on `sessions` sends
//   the tag `session:<token hash>` on the cache bus when the change commits (migration 0033), and a TRUNCATE
//   sends `sessions:all` (0034);
// - a change this process makes keeps it out of memory here at once, before the answer to the request that made it
//   goes out, until every process has heard (`sessionsChanged`), so the answer to a logout is never followed by a
//   request the old row lets through;
// - while this process's cache bus is not listening, every lookup reads the database, and the whole cache is
//   dropped whenever the bus stops or starts listening (public-cache.ts `hearingEpoch`); a bus connection that
//   stops hearing its own heartbeat counts as not listening within a few seconds (server/db/cache-bus.ts);
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

const TAG = SESSION_TAG_PREFIX
/** The tag a TRUNCATE of the sessions sends (migration 0034): forget them all. */
const ALL_TAG = ALL_SESSIONS_TAG

/** The tag the trigger sends when a session changes. */
export const sessionTag = (tokenHash: string) => TAG + tokenHash

/** Long enough for any revoking transaction to commit and its notification to reach every process. */
const CHANGING_MS = 60_000

/** How many revoked sessions are marked one by one; a larger revoke turns the cache off for CHANGING_MS. */
const MAX_MARKED = 10_000

/**
 * Token hashes of sessions this process revoked lately: read from the database, never kept, for CHANGING_MS.
 * Per process, like the caches they guard.
 */
const changing = new LRUCache<string, true>({ max: MAX_MARKED, ttl: CHANGING_MS })
/** Until when (performance.now()) no session is served from memory: a revoke too large to mark one by one. */
let bypassUntil = 0

/**
 * This process has just changed these sessions (by their token hashes), in a transaction that may not have
 * committed yet (or has just committed: the answer to the request has not gone out): the token lookup stops
 * serving them from memory now, until every process has heard of the change.
 */
export function sessionsChanged(tokenHashes: readonly string[]) {
  // Marking more than the marks hold would push out the first ones: then nothing is served from memory a while.
  if (tokenHashes.length + changing.size > MAX_MARKED) bypassUntil = performance.now() + CHANGING_MS
  for (const tokenHash of tokenHashes) changing.set(tokenHash, true)
}

const remembersNone = () => bypassUntil > performance.now()

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
        if (tag === ALL_TAG) rows.clear()
        else if (tag.startsWith(TAG)) rows.delete(tag.slice(TAG.length))
        else continue
        drops++
      }
    },
    () => {
      rows.clear()
      drops++
    },
  )
  /** The hearingEpoch() the rows were read under: when it changes, they are all dropped. */
  let hearing: number | null = null
  return {
    async get(tokenHash, load) {
      const heard = hearingEpoch()
      if (heard !== hearing) {
        rows.clear()
        drops++
        hearing = heard
      }
      const bypass = () => heard === null || changing.has(tokenHash) || remembersNone()
      if (bypass()) return load(tokenHash)
      const hit = rows.get(tokenHash)
      if (hit) return hit
      const before = drops
      const row = await load(tokenHash)
      if (row && drops === before && hearingEpoch() === heard && !bypass()) rows.set(tokenHash, row)
      return row
    },
  }
}
