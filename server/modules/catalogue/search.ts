import { z } from 'zod'
import type { Db } from '#server/db/database.ts'
import { cursorId, decodeCursor, encodeCursor } from '#server/http/cursor.ts'
import { presentCourseCard as toCourseCard } from './present.ts'
import { searchCourses, type SearchRow } from './search.repository.ts'
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

const count = z.number().int().min(0).max(2_147_483_647)

/** A search cursor, `[keyword, score, studentCount, id]`: it only continues the search it came from. */
const searchCursor = (keyword: string) => z.tuple([z.literal(keyword), count, count, cursorId])

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
      const cursor = q.cursor ? decodeCursor(q.cursor, searchCursor(q.keyword)) : undefined
      const after = cursor && { score: cursor[1], studentCount: cursor[2], id: cursor[3] }
      const rows = await searchCourses(db, words, after, q.limit + 1)
      const page = rows.slice(0, q.limit)
      const last = page.at(-1)
      return {
        keyword: q.keyword,
        words,
        list: page.map((r) => toHit(r, words)),
        next_cursor:
          rows.length > q.limit && last ? encodeCursor([q.keyword, last.score, last.studentCount, last.id]) : null,
      }
    },
  }
}
