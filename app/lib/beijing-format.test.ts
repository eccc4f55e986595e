import { describe, expect, it } from 'vitest'
import { beijingCalendarDay, beijingClock, beijingDayAndTime, beijingDaysAgo } from './beijing-format.ts'

describe('Beijing dates on screen', () => {
  const now = new Date('2026-06-10T12:00:00Z') // 20:00 on 10 June in Beijing

  it('writes the Beijing clock', () => {
    expect(beijingClock(new Date('2026-06-09T15:59:00Z'))).toBe('23:59')
    expect(beijingClock(new Date('2026-06-09T16:05:00Z'))).toBe('00:05')
  })

  it.each([
    ['2026-06-09T16:00:00Z', 0],
    ['2026-06-09T15:59:59Z', 1],
    ['2026-06-01T04:00:00Z', 9],
    ['2026-06-10T16:00:00Z', -1],
  ])('counts Beijing days: %s is %i days before', (iso, days) => {
    expect(beijingDaysAgo(new Date(iso), now)).toBe(days)
  })

  it('leaves the year out within the Beijing year', () => {
    expect(beijingCalendarDay(new Date('2026-03-01T04:00:00Z'), now)).toBe('3月1日')
    expect(beijingCalendarDay(new Date('2025-12-31T17:00:00Z'), now)).toBe('1月1日')
    expect(beijingCalendarDay(new Date('2024-02-01T04:00:00Z'), now)).toBe('2024年2月1日')
  })

  it('writes a live start with its Beijing weekday', () => {
    // 20:00 on Wednesday 4 March 2026 in Beijing; still Wednesday 12:00 in UTC.
    expect(beijingDayAndTime(new Date('2026-03-04T12:00:00Z'))).toBe('3月4日 周三 20:00')
    // 01:30 on Thursday 5 March in Beijing, Wednesday in UTC.
    expect(beijingDayAndTime(new Date('2026-03-04T17:30:00Z'))).toBe('3月5日 周四 01:30')
  })
})
