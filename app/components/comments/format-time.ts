import { beijingCalendarDay, beijingClock, beijingDaysAgo } from '#app/lib/beijing-format.ts'

/**
 * When a comment was written, as people say it: 刚刚, N 分钟前, N 小时前, 昨天 HH:mm, M月D日, or YYYY年M月D日 for
 * another year. Days are Beijing days, so the server render and any browser agree.
 */
export function formatCommentTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso)
  if (Number.isNaN(at)) return ''
  const diff = now - at
  if (diff < 60_000) return '刚刚'
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)} 分钟前`
  const daysAgo = beijingDaysAgo(new Date(at), new Date(now))
  if (daysAgo === 0) return `${Math.floor(diff / 3_600_000)} 小时前`
  if (daysAgo === 1) return `昨天 ${beijingClock(new Date(at))}`
  return beijingCalendarDay(new Date(at), new Date(now))
}
