import type { CourseType } from '#shared/api/catalogue.ts'

export const COURSE_TYPE_LABEL: Record<CourseType, string> = {
  series: '系列课',
  single: '单课',
  live: '直播',
  system: '系统班',
}

export const LEVEL_LABEL: Record<string, string> = { beginner: '入门', intermediate: '进阶', advanced: '高级' }

/** The course page's canonical address (spec 2: /course/{course_id}.html). */
export function courseHref(id: number) {
  return `/course/${id}.html`
}

/** 12860 → "1.3万", 960 → "960". */
export function formatCount(n: number) {
  if (n >= 10_000) return `${(n / 10_000).toFixed(1).replace(/\.0$/, '')}万`
  return String(n)
}

/** 754 → "12:34"; an hour or more → "1:02:03". */
export function formatDuration(seconds: number) {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

/** 7830 → "2 小时 11 分钟", 600 → "10 分钟". */
export function formatTotalDuration(seconds: number) {
  const minutes = Math.round(seconds / 60)
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m} 分钟`
  return m === 0 ? `${h} 小时` : `${h} 小时 ${m} 分钟`
}
