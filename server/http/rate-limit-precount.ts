import type pg from 'pg'
import { hitMany } from './rate-limit.repository.ts'

interface Counter {
  /** Everyone's hits in the window as the table said at this process's last write. */
  known: number
  /** This process's hits since, not written yet. */
  pending: number
  resetAt: number
}

/**
 * The general rule's counters, counted in this process first: the hits of every address are added up here and
 * written to `rate_limits` in one statement every `flushMs`, and the count a request is judged by is the table's
 * (as of the last write, so other instances' hits included) plus this process's hits since. One process alone
 * counts exactly; with several, each may let through what reaches it in one `flushMs` past the limit. The tight
 * rules (SMS, sign-in, payments…) do not come here: they count in the table on every hit.
 *
 * Why: one upsert per request on the row of a busy address cost two thirds of a hot read's throughput
 * (docs/performance.md, "Rate limit").
 */
export function createPrecount(pool: pg.Pool, windowMs: number, flushMs = 250) {
  const counters = new Map<string, Counter>()
  let timer: NodeJS.Timeout | null = null
  let writing: Promise<void> = Promise.resolve()

  async function write() {
    timer = null
    const now = Date.now()
    const batch = new Map<string, number>()
    const sent = new Map<string, Counter>()
    for (const [key, c] of counters) {
      if (c.pending > 0) {
        batch.set(key, c.pending)
        sent.set(key, c)
        c.known += c.pending
        c.pending = 0
      } else if (c.resetAt <= now) counters.delete(key)
    }
    if (batch.size === 0) return
    const answers = await hitMany(pool, batch, windowMs).catch(() => null)
    for (const [key, c] of sent) {
      const answer = answers?.get(key)
      // A counter that started a new window meanwhile keeps its own figures.
      if (!answer || counters.get(key) !== c) continue
      c.known = answer.current
      c.resetAt = Date.now() + answer.ttl
    }
  }

  return {
    /** Counts a hit: the hits in this key's window so far and the ms it has left, at once. */
    hit(key: string) {
      const now = Date.now()
      let c = counters.get(key)
      if (!c || c.resetAt <= now) {
        c = { known: 0, pending: 0, resetAt: now + windowMs }
        counters.set(key, c)
      }
      c.pending++
      timer ??= setTimeout(() => {
        writing = write()
      }, flushMs).unref()
      return { current: c.known + c.pending, ttl: c.resetAt - now }
    },
    /** Writes what is pending now (shutdown, tests). */
    async flush() {
      if (timer) clearTimeout(timer)
      await writing
      await write()
    },
  }
}

export type Precount = ReturnType<typeof createPrecount>
