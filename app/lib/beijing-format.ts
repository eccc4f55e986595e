import { beijingDate, beijingDayStart, beijingMinute, beijingYear } from '#shared/time.ts'

// Dates as screens write them, in Beijing time (shared/time.ts), so the server render and every browser agree
// whatever time zone either runs in.

const DAY_MS = 24 * 3600_000
const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六']

/** "20:05": the Beijing wall-clock time. */
export function beijingClock(at: Date): string {
  return beijingMinute(at).slice(11)
}

/** How many Beijing calendar days `at` lies before `now`: 0 the same day, 1 the day before, negative after. */
export function beijingDaysAgo(at: Date, now: Date): number {
  return Math.round((beijingDayStart(now).getTime() - beijingDayStart(at).getTime()) / DAY_MS)
}

/** "3月4日" in the Beijing year of `now`, "2025年3月4日" in any other. */
export function beijingCalendarDay(at: Date, now: Date): string {
  const [year, month, day] = beijingDate(at).split('-').map(Number)
  return year === beijingYear(now) ? `${month}月${day}日` : `${year}年${month}月${day}日`
}

/** "3月4日 周三 20:00": a day of this year with its weekday and time (live start times). */
export function beijingDayAndTime(at: Date): string {
  const date = beijingDate(at)
  const [, month, day] = date.split('-').map(Number)
  // The calendar day read as UTC midnight has the Beijing day's weekday.
  return `${month}月${day}日 周${WEEKDAYS[new Date(date).getUTCDay()]} ${beijingClock(at)}`
}

/** "2026-11-22 14:05" in Beijing time, the same in the server render and every browser. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return beijingMinute(d)
}
