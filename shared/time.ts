// Beijing time (Asia/Shanghai: UTC+8 all year, no daylight saving): the business's calendar for day limits, order
// numbers, reports and provider timestamps. Plain arithmetic, so it is the same on the server and in the browser
// whatever their own time zone.

const BEIJING_OFFSET_MS = 8 * 3600_000
const DAY_MS = 24 * 3600_000

/** The instant shifted so that its UTC fields read as Beijing wall-clock time. */
function wall(at: Date) {
  return new Date(at.getTime() + BEIJING_OFFSET_MS)
}

/** Midnight in Beijing of the day `at` falls in. */
export function beijingDayStart(at: Date): Date {
  return new Date(Math.floor((at.getTime() + BEIJING_OFFSET_MS) / DAY_MS) * DAY_MS - BEIJING_OFFSET_MS)
}

/** Midnight in Beijing starting the calendar day "YYYY-MM-DD", plus `plusDays` days. */
export function beijingDayFromText(day: string, plusDays = 0): Date {
  return new Date(Date.parse(`${day}T00:00:00+08:00`) + plusDays * DAY_MS)
}

/** The year in Beijing. */
export function beijingYear(at: Date): number {
  return wall(at).getUTCFullYear()
}

/** "YYYY-MM-DD" in Beijing. */
export function beijingDate(at: Date): string {
  return wall(at).toISOString().slice(0, 10)
}

/** "YYYYMMDD" in Beijing (order numbers). */
export function beijingCompactDate(at: Date): string {
  return beijingDate(at).replaceAll('-', '')
}

/** "YYYY-MM-DD HH:mm:ss" in Beijing (CSV exports, Alipay timestamps). */
export function beijingDateTime(at: Date): string {
  return wall(at).toISOString().slice(0, 19).replace('T', ' ')
}

/** "YYYY-MM-DD HH:mm" in Beijing (what screens show). */
export function beijingMinute(at: Date): string {
  return beijingDateTime(at).slice(0, 16)
}

/** RFC 3339 with the +08:00 offset, e.g. "2026-11-25T17:03:22+08:00" (WeChat Pay's time_expire). */
export function rfc3339Beijing(at: Date): string {
  return `${wall(at).toISOString().slice(0, 19)}+08:00`
}
