import type { CourseType } from '#shared/api/catalogue.ts'

export const COURSE_TYPE_LABEL: Record<CourseType, string> = {
  series: '系列课',
  single: '单课',
  live: '直播',
  system: '系统班',
}

export const LEVEL_LABEL: Record<string, string> = { beginner: '入门', intermediate: '进阶', advanced: '高级' }

/** The course page's canonical address (spec 2: /course/{course_id}.html). */
export function courseHref(id: number): `/${string}` {
  return `/course/${id}.html`
}

/**
 * The one count formatter of every screen (learners, followers): 15230 → "1.5万", 12860 → "1.2万", 960 → "960".
 * Rounded down, so a count never claims more than there is; 1.0万 reads "1万".
 */
export function formatCount(n: number) {
  if (n >= 10_000) return `${(Math.floor(n / 1_000) / 10).toFixed(1).replace(/\.0$/, '')}万`
  return String(Math.max(0, Math.floor(n)))
}

/**
 * What a lesson's preview label says, from the same `free_seconds` the player stops at: "试看 10 秒" under a
 * minute, else whole minutes rounded down ("试看 2 分钟" for 150 s), never more than the player plays.
 */
export function previewLabel(freeSeconds: number) {
  const s = Math.max(0, Math.floor(freeSeconds))
  return s < 60 ? `试看 ${s} 秒` : `试看 ${Math.floor(s / 60)} 分钟`
}

/** 754 → "12:34"; an hour or more → "1:02:03". */
export function formatDuration(seconds: number) {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

/** 7830 → "2 小时 11 分钟", 600 → "10 分钟", a course of short clips 6 → "6 秒" (not "0 分钟"). */
export function formatTotalDuration(seconds: number) {
  if (seconds < 30) return `${Math.max(1, Math.round(seconds))} 秒`
  const minutes = Math.max(1, Math.round(seconds / 60))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m} 分钟`
  return m === 0 ? `${h} 小时` : `${h} 小时 ${m} 分钟`
}
