// Types only from the server: importing its zod schemas would put zod in the page's JavaScript.
import type { CourseSort, CourseType } from '#shared/api/catalogue.ts'

export const TYPE_FILTERS: { value: CourseType | ''; label: string }[] = [
  { value: '', label: '全部' },
  { value: 'series', label: '系列课' },
  { value: 'single', label: '单课' },
  { value: 'live', label: '直播' },
  { value: 'system', label: '系统班' },
]

export const SORT_FILTERS: { value: CourseSort; label: string }[] = [
  { value: 'default', label: '综合' },
  { value: 'new', label: '最新' },
  { value: 'hot', label: '最热' },
  { value: 'price_asc', label: '价格从低到高' },
  { value: 'price_desc', label: '价格从高到低' },
]

/** The type and sort a list URL asks for; unknown values fall back to "all" and "default" instead of failing. */
export function readFilters(search: URLSearchParams): { type: CourseType | undefined; sort: CourseSort } {
  const type = TYPE_FILTERS.find((t) => t.value !== '' && t.value === search.get('type'))?.value || undefined
  const sortParam = search.get('sort')
  const sort = SORT_FILTERS.find((s) => s.value === sortParam)?.value ?? 'default'
  return { type, sort }
}

/** The query string for a list with one filter changed; "all" and "default" are left out of the URL. */
export function filterHref(current: { type?: string; sort: string }, change: { type?: string; sort?: string }) {
  const next = { ...current, ...change }
  const q = new URLSearchParams()
  if (next.type) q.set('type', next.type)
  if (next.sort && next.sort !== 'default') q.set('sort', next.sort)
  const s = q.toString()
  return s ? `?${s}` : '?'
}
