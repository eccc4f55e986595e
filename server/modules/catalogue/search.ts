import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { presentCourseCard as toCourseCard } from './present.ts'
import { searchCourses, type SearchAfter, type SearchRow } from './search.repository.ts'
import type { Range, SearchHit, SearchQuery, SearchResult } from './search.schema.ts'

/** More words than this add nothing but cost: the rest are dropped. */
const MAX_WORDS = 5

/** The distinct words of a keyword (split on spaces), at most MAX_WORDS. */
export function keywordWords(keyword: string): string[] {
  const seen = new Map<string, string>()
  for (const w of keyword.split(' ')) {
    if (w && !seen.has(w.toLowerCase())) seen.set(w.toLowerCase(), w)
  }
  return [...seen.values()].slice(0, MAX_WORDS)
}

/** Where the words occur in a text, case-insensitively, as merged [start, end) ranges. */
export function findRanges(text: string | null, words: string[]): Range[] {
  if (!text) return []
  // Lower-casing keeps the length for the scripts we serve; if it ever does not, compare case-sensitively.
  const folded = text.toLowerCase().length === text.length
  const haystack = folded ? text.toLowerCase() : text
  const ranges: Range[] = []
  for (const word of words) {
    const needle = folded ? word.toLowerCase() : word
    if (!needle) continue
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
      ranges.push({ start: at, end: at + needle.length })
    }
  }
  ranges.sort((a, b) => a.start - b.start)
  const merged: Range[] = []
  for (const r of ranges) {
    const last = merged.at(-1)
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end)
    else merged.push({ ...r })
  }
  return merged
}

function toHit(row: SearchRow, words: string[]): SearchHit {
  const title = findRanges(row.title, words)
  const teacher = findRanges(row.teacherName, words)
  const category =
    findRanges(row.categoryName, words).length > 0 || findRanges(row.parentCategoryName, words).length > 0
  const matched: SearchHit['matched'] = []
  if (title.length > 0) matched.push('title')
  if (teacher.length > 0) matched.push('teacher')
  if (category) matched.push('category')
  return { ...toCourseCard(row), matched, highlights: { title, teacher_name: teacher } }
}

function encodeCursor(keyword: string, a: SearchAfter) {
  return Buffer.from(JSON.stringify([keyword, a.score, a.studentCount, a.id])).toString('base64url')
}

function decodeCursor(text: string, keyword: string): SearchAfter {
  const bad = () => new AppError(Codes.BadRequest, '参数 cursor 格式不正确（cursor）')
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw bad()
  const [k, score, studentCount, id] = parsed as unknown[]
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2_147_483_647
  // A cursor only continues the search it came from.
  if (k !== keyword || !int(score) || !int(studentCount) || !int(id)) throw bad()
  return { score, studentCount, id }
}

/**
 * Course search (spec 7 GET /searchCourse): every word must match the course's title, teacher or category;
 * title matches rank first. Results carry the ranges to highlight. See search.repository.ts for index use.
 */
export function createSearchService(deps: { db: Db }) {
  const { db } = deps
  return {
    /** One page of results for a keyword (already trimmed by the schema). */
    async search(q: Pick<SearchQuery, 'keyword' | 'cursor' | 'limit'>): Promise<SearchResult> {
      const words = keywordWords(q.keyword)
      const after = q.cursor ? decodeCursor(q.cursor, q.keyword) : undefined
      const rows = await searchCourses(db, words, after, q.limit + 1)
      const page = rows.slice(0, q.limit)
      const last = page.at(-1)
      return {
        keyword: q.keyword,
        words,
        list: page.map((r) => toHit(r, words)),
        next_cursor:
          rows.length > q.limit && last
            ? encodeCursor(q.keyword, { score: last.score, studentCount: last.studentCount, id: last.id })
            : null,
      }
    },
  }
}
