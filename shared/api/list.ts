import { z } from 'zod'

/**
 * The query every console list takes (issue 13): page (from 1), page size, one sort field of the list's own,
 * its order, and a search text; each list adds its filters. The console keeps these in the URL.
 */
export function listQuery<S extends string>(sorts: readonly [S, ...S[]], defaultSort: NoInfer<S>) {
  return z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
    sort: z.enum(sorts).default(defaultSort),
    order: z.enum(['asc', 'desc']).default('desc'),
    q: z.string().trim().max(100).optional(),
  })
}

/** What every console list answers: the page's rows and how many match the filter in all. */
export function listPage<T extends z.ZodType>(row: T) {
  return z.object({
    list: z.array(row),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
}

export type ListQuery = { page: number; page_size: number; sort: string; order: 'asc' | 'desc'; q?: string }
export type ListPage<T> = { list: T[]; total: number; page: number; page_size: number }

/** The most rows one CSV export writes; a larger filter is told to narrow down. */
export const EXPORT_MAX_ROWS = 50_000
