import { describe, expect, it } from 'vitest'
import { DecisionCache, type DecisionEntry } from './decision-cache.ts'

const entry = (until: number | null): DecisionEntry => ({
  decision:
    until === null
      ? { allowed: true, until_second: null, reason: 'entitled' }
      : { allowed: true, until_second: until, reason: 'preview' },
  lesson: { courseId: 1001, durationSeconds: 100 },
})

describe('DecisionCache', () => {
  it('trusts an answer for its time to live on the injected clock', () => {
    let clock = new Date('2026-11-22T08:00:00Z')
    const cache = new DecisionCache({ ttlMs: 60_000, now: () => clock })
    cache.set(1, 50001, entry(null))
    clock = new Date(clock.getTime() + 59_000)
    expect(cache.get(1, 50001)).toEqual(entry(null))
    expect(cache.get(2, 50001)).toBeUndefined()
    clock = new Date(clock.getTime() + 2_000)
    expect(cache.get(1, 50001)).toBeUndefined()
  })

  it('replaces, deletes, and drops the least recently used beyond its size', () => {
    const clock = new Date('2026-11-22T08:00:00Z')
    const cache = new DecisionCache({ ttlMs: 60_000, now: () => clock, maxEntries: 2 })
    cache.set(1, 1, entry(10))
    cache.set(1, 1, entry(null))
    expect(cache.get(1, 1)).toEqual(entry(null))
    cache.set(1, 2, entry(10))
    cache.get(1, 1)
    cache.set(1, 3, entry(10))
    expect(cache.get(1, 2)).toBeUndefined()
    expect(cache.get(1, 1)).toBeDefined()
    cache.delete(1, 1)
    expect(cache.get(1, 1)).toBeUndefined()
  })

  it('keeps nothing with a time to live of 0', () => {
    const cache = new DecisionCache({ ttlMs: 0, now: () => new Date() })
    cache.set(1, 1, entry(null))
    expect(cache.get(1, 1)).toBeUndefined()
  })
})
