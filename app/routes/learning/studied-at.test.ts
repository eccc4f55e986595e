import { describe, expect, it } from 'vitest'
import { formatStudiedAt } from './studied-at.ts'

describe('formatStudiedAt', () => {
  const now = Date.parse('2026-11-22T08:00:00Z') // 16:00 in Beijing
  it.each([
    ['2026-11-22T06:05:00Z', '今天 14:05'],
    ['2026-11-21T16:30:00Z', '今天 00:30'],
    ['2026-11-21T15:59:00Z', '昨天 23:59'],
    ['2026-11-03T01:00:00Z', '11月3日'],
    ['2025-03-04T01:00:00Z', '2025年3月4日'],
  ])('%s → %s', (iso, text) => {
    expect(formatStudiedAt(iso, now)).toBe(text)
  })
})
