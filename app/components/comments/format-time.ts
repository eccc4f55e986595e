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
  const beijing = (t: number) => new Date(t + 8 * 3_600_000)
  const d = beijing(at)
  const today = beijing(now)
  const dayNo = (x: Date) => Math.floor(x.getTime() / 86_400_000)
  const hhmm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`
  if (dayNo(d) === dayNo(today)) return `${Math.floor(diff / 3_600_000)} 小时前`
  if (dayNo(d) === dayNo(today) - 1) return `昨天 ${hhmm}`
  if (d.getUTCFullYear() === today.getUTCFullYear()) return `${d.getUTCMonth() + 1}月${d.getUTCDate()}日`
  return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日`
}
