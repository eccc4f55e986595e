import { z } from 'zod'
import type { Db } from '#server/db/database.ts'
import { publicCache } from '#server/http/public-cache.ts'
import { cursorId, decodeCursor, encodeCursor } from '#server/http/cursor.ts'
import { presentCourseCard as toCourseCard } from './present.ts'
import {
  rankedPage,
  searchCourses,
  TITLE_SCORE,
  titlePage,
  type SearchAfter,
  type SearchRow,
} from './search.repository.ts'
import type { SearchHit, SearchQuery, SearchResult } from './search.schema.ts'
import { wordMatcher, wordQuery, type WordQuery } from './search-text.ts'
import { correctWords } from './search-typos.ts'
import { COURSE_LISTS_TAG, SEARCH_TAG } from './cache-tags.ts'

/** More words than this add nothing but cost: the rest are dropped. */
const MAX_WORDS = 5

/** The distinct words of a keyword (split on spaces, case-insensitively), at most MAX_WORDS. */
export function keywordWords(keyword: string): string[] {
  const seen = new Map<string, string>()
  for (const w of keyword.split(' ')) {
    if (w && !seen.has(w.toLowerCase())) seen.set(w.toLowerCase(), w)
  }
  return [...seen.values()].slice(0, MAX_WORDS)
}

type Matcher = ReturnType<typeof wordMatcher>

/** The first of `texts` a word occurs in, with where. */
function firstMarked(texts: readonly string[] | null, match: Matcher) {
  for (const text of texts ?? []) {
    const ranges = match(text)
    if (ranges.length > 0) return { text, ranges }
  }
  return null
}

function toHit(row: SearchRow, match: Matcher): SearchHit {
  const title = match(row.title)
  const teacher = match(row.teacherName)
  const category = firstMarked(
    [row.categoryName, row.parentCategoryName].filter((c) => c !== null),
    match,
  )
  const tag = firstMarked(row.tags, match)
  const lesson = firstMarked(row.lessons, match)
  const matched: SearchHit['matched'] = []
  if (title.length > 0) matched.push('title')
  if (teacher.length > 0) matched.push('teacher')
  if (tag) matched.push('tag')
  if (category) matched.push('category')
  if (lesson) matched.push('lesson')
  return { ...toCourseCard(row), matched, highlights: { title, teacher_name: teacher, tag, lesson } }
}

type SearchPageQuery = Pick<SearchQuery, 'keyword' | 'cursor' | 'limit'>

const count = z.number().int().min(0).max(2_147_483_647)

/**
 * A search cursor, `[keyword, score, studentCount, id]`, plus the corrected keyword when the search was corrected:
 * it only continues the search it came from.
 */
const searchCursor = (keyword: string) => {
  const key = [z.literal(keyword), count, count, cursorId] as const
  return z.union([z.tuple(key), z.tuple([...key, z.string().max(200)])])
}

/** One page (and one row more) of courses every word matches, best first; null for a word of symbols ("%"). */
async function rank(db: Db, words: string[], after: SearchAfter | undefined, limit: number) {
  const queries = words.map(wordQuery)
  if (queries.some((w) => w === null)) return null
  const words_ = queries as WordQuery[]
  // One term (a word of one or two Chinese characters, a Latin word, pinyin): ranked straight off course_terms.
  const terms = words_.length === 1 ? words_[0]!.terms : null
  if (terms) return await rankedPage(db, terms, after, limit + 1)
  // Several words: those with every word in the title come first (the most a course can score); when they fill
  // the page, they are the page, read in learners order without scoring any other match.
  const top = TITLE_SCORE * words_.length
  if (!after || after.score === top) {
    const page = await titlePage(db, words_, after, limit + 1)
    if (page.length > limit) return page
  }
  return await searchCourses(db, words_, after, limit + 1)
}

/**
 * Course search (spec 7 GET /searchCourse): every word must match the course's title, teacher, tags, category or
 * a lesson title, as written or as pinyin; title matches rank first, then the most learners. Results carry the
 * ranges to highlight. A keyword that finds nothing is corrected when it has a misspelt word (search-typos.ts).
 * See search.repository.ts for the query and search-text.ts for the documents.
 */
export function createSearchService(deps: { db: Db; cacheMs: number }) {
  const { db } = deps
  // Learners search for the same few words (the hot words under the search box, what a course page links to), so
  // pages are kept like the course lists' (a few seconds, bounded by the cards they hold). A rebuilt search
  // document (search-index.ts) and any course write drop them all, here and in every other process.
  const pages = publicCache({
    max: 5_000,
    maxSize: 50_000,
    sizeOf: (page: SearchResult) => 1 + page.list.length,
    ttlMs: deps.cacheMs,
    load: (key: string) => {
      const [keyword, cursor, limit] = JSON.parse(key) as [string, string | null, number]
      return search({ keyword, limit, ...(cursor !== null && { cursor }) })
    },
    tagsOf: () => [SEARCH_TAG, COURSE_LISTS_TAG],
  })

  async function search(q: SearchPageQuery): Promise<SearchResult> {
    const cursor = q.cursor ? decodeCursor(q.cursor, searchCursor(q.keyword)) : undefined
    const after = cursor && { score: cursor[1], studentCount: cursor[2], id: cursor[3] }
    // A later page of a corrected search continues the corrected one.
    const corrected = cursor?.[4]
    let words = keywordWords(corrected ?? q.keyword)
    let rows = (await rank(db, words, after, q.limit)) ?? []
    let fixed = corrected
    if (rows.length === 0 && !cursor) {
      const better = await correctWords(db, words)
      const found = better && (await rank(db, better, undefined, q.limit))
      if (better && found?.length) [words, rows, fixed] = [better, found, better.join(' ')]
    }
    const page = rows.slice(0, q.limit)
    const last = page.at(-1)
    const match = wordMatcher(words)
    return {
      keyword: q.keyword,
      words,
      ...(fixed !== undefined && { corrected: fixed }),
      list: page.map((r) => toHit(r, match)),
      next_cursor:
        rows.length > q.limit && last
          ? encodeCursor([q.keyword, last.score, last.studentCount, last.id, ...(fixed ? [fixed] : [])])
          : null,
    }
  }

  return {
    /** One page of results for a keyword (already trimmed by the schema). */
    search: (q: SearchPageQuery) => pages.get(JSON.stringify([q.keyword, q.cursor ?? null, q.limit])),
  }
}
