import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard } from '#shared/api/catalogue.ts'
import { pageLimit } from '#shared/api/params.ts'

const KEYWORD_MAX = 50
const SEARCH_PAGE_MAX = 50

export const SearchQuery = z.object({
  keyword: z
    .string()
    .max(200)
    .transform((v) => v.trim().replace(/\s+/g, ' '))
    .refine((v) => v.length >= 1, '请输入搜索关键词')
    .refine((v) => v.length <= KEYWORD_MAX, `关键词不能超过 ${KEYWORD_MAX} 个字`)
    .describe(
      `Words to find in course titles, teacher names, tags, category names and lesson titles, as written (any case) or as pinyin, full or initials (1–${KEYWORD_MAX} characters; spaces separate words that must all match)`,
    ),
  cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
  limit: pageLimit(SEARCH_PAGE_MAX, 20),
})
export type SearchQuery = z.output<typeof SearchQuery>

/** [start, end) in UTF-16 code units of the string, as JavaScript's String.slice counts. */
export const Range = z.object({ start: z.number().int(), end: z.number().int() })
export type Range = z.infer<typeof Range>

/** A text that is not on the card (a tag, a lesson title) with the ranges to highlight in it. */
const MarkedText = z.object({ text: z.string(), ranges: z.array(Range) })

export const SearchHit = CourseCard.extend({
  matched: z.array(z.enum(['title', 'teacher', 'category', 'tag', 'lesson'])).describe('Where the words were found'),
  highlights: z.object({
    title: z.array(Range).describe('Ranges of `title` to highlight'),
    teacher_name: z.array(Range).describe('Ranges of `teacher_name` to highlight'),
    tag: MarkedText.nullable().describe('The first tag a word was found in, when one was'),
    lesson: MarkedText.nullable().describe('The first lesson title a word was found in, when not in the card'),
  }),
})
export type SearchHit = z.infer<typeof SearchHit>

export const SearchResult = z.object({
  keyword: z.string().describe('The keyword as searched (trimmed, spaces collapsed)'),
  words: z.array(z.string()).describe('The words every result matches'),
  corrected: z
    .string()
    .optional()
    .describe(
      'Only when the keyword as typed found nothing and a misspelt word was corrected: the keyword searched instead (the page says 已为你搜索 …)',
    ),
  list: z.array(SearchHit),
  next_cursor: z.string().nullable(),
})
export type SearchResult = z.infer<typeof SearchResult>

export const SearchResponse = envelope(SearchResult)
