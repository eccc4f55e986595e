import { beijingCalendarDay, beijingClock, beijingDaysAgo } from '#app/lib/beijing-format.ts'

/** "今天 14:05", "昨天 09:30", "11月20日" or "2025年3月4日", in Beijing time. */
export function formatStudiedAt(iso: string, now = Date.now()) {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ''
  const daysAgo = beijingDaysAgo(at, new Date(now))
  if (daysAgo === 0) return `今天 ${beijingClock(at)}`
  if (daysAgo === 1) return `昨天 ${beijingClock(at)}`
  return beijingCalendarDay(at, new Date(now))
}

/** When a course was last studied, for its row: "上次学习 今天 14:05", or that it is not started yet. */
export function lastStudied(at: string | null) {
  return at ? `上次学习 ${formatStudiedAt(at)}` : '还没开始学'
}
