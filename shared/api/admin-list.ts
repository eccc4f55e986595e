import { z } from 'zod'

// The query every console list takes (server/http/admin-list.ts answers it): a page number and size, one sort key
// from the list's own whitelist ("created_at" ascending, "-created_at" descending) and, where the console exports,
// format=csv for the whole filtered list as a file. The console's tables and filter forms use the same schema.

const ADMIN_PAGE_SIZE_MAX = 100

/** The paging, sort and format part of a console list's query; `sorts` are the keys it may sort by. */
export function adminListQuery<const S extends readonly [string, ...string[]]>(sorts: S, defaultSort: SortKey<S>) {
  const keys = sorts.flatMap((s) => [s, `-${s}`]) as [SortKey<S>, ...SortKey<S>[]]
  return z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1).describe('1-based page number'),
    page_size: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX).default(20),
    sort: z
      .enum(keys)
      .default(defaultSort as never)
      .describe(`One of ${sorts.join(', ')}; a leading - sorts descending`),
    format: z.enum(['json', 'csv']).default('json').describe('csv: the whole filtered list as a CSV file'),
  })
}

/** A sort key of a list: a field, or a field with a leading minus for descending. */
export type SortKey<S extends readonly string[]> = S[number] | `-${S[number]}`

/** A list's search box: a phone, an id or part of a name, as each list says. */
export const SearchText = z.string().trim().max(40, '搜索内容最多 40 个字')

/** One Beijing calendar day, "YYYY-MM-DD" (date filters of the console's lists are inclusive days). */
export const BeijingDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')

/** What every console list answers: one page of rows and how many rows match the filters in all. */
export interface ListPage<T> {
  list: T[]
  total: number
  page: number
  page_size: number
}
