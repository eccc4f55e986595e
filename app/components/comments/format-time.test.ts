import { describe, expect, it } from 'vitest'
import { formatCommentTime } from './format-time.ts'

describe('formatCommentTime', () => {
  // 2026-06-10 20:00 in Beijing.
  const now = Date.parse('2026-06-10T12:00:00Z')
  it.each([
    ['2026-06-10T11:59:30Z', '刚刚'],
    ['2026-06-10T11:15:00Z', '45 分钟前'],
    ['2026-06-10T02:00:00Z', '10 小时前'],
    ['2026-06-09T15:30:00Z', '昨天 23:30'],
    ['2026-06-09T15:59:00Z', '昨天 23:59'],
    ['2026-06-09T16:00:00Z', '20 小时前'],
    ['2026-03-01T04:00:00Z', '3月1日'],
    // 01:00 on 1 January 2026 in Beijing, still 2025 in UTC: the Beijing year counts.
    ['2025-12-31T17:00:00Z', '1月1日'],
    ['2024-02-01T04:00:00Z', '2024年2月1日'],
    ['not a date', ''],
  ])('%s → %s', (iso, expected) => {
    expect(formatCommentTime(iso, now)).toBe(expected)
  })
})
