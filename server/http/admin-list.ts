import { z } from 'zod'
import type { DbOrTx } from '#server/db/database.ts'
import { can, type Permission } from '#shared/staff/roles.ts'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'
import { sendCsv } from './csv.ts'
import { envelope, ok } from './envelope.ts'
import type { Routes } from './route.ts'

// The server half of the console's lists (the query schema is shared/api/admin-list.ts): the sort key parsed
// against the whitelist the schema already enforced, the page shape every list answers, and CSV export streamed
// in batches so 10,000 rows never sit in memory as one string. Repositories turn `Sort` into ORDER BY on their
// own columns; nothing here knows a table.

/** How many rows one export may hold, and how many are read per batch. */
const CSV_MAX_ROWS = 10_000
const CSV_BATCH = 500

export interface Sort<K extends string> {
  key: K
  desc: boolean
}

/** "-created_at" → { key: 'created_at', desc: true }. */
export function parseSort<K extends string>(sort: K | `-${K}`): Sort<K> {
  return sort.startsWith('-') ? { key: sort.slice(1) as K, desc: true } : { key: sort as K, desc: false }
}

export interface PageRequest {
  page: number
  page_size: number
}

/** Offset and limit of a page. */
export function pageWindow(q: PageRequest) {
  return { offset: (q.page - 1) * q.page_size, limit: q.page_size }
}

/** The envelope of a console list: one page of rows and the total the filters match. */
function adminPage<T extends z.ZodType>(row: T) {
  return envelope(
    z.object({
      list: z.array(row),
      total: z.number().int().describe('Rows matching the filters'),
      page: z.number().int(),
      page_size: z.number().int(),
    }),
  )
}

/** A page as adminPage describes it. */
export function pageOf<T>(list: T[], total: number, q: PageRequest) {
  return { list, total, page: q.page, page_size: q.page_size }
}

/**
 * One page of a console list: the query's window of rows read by `read`, turned into what the list shows by
 * `view`, with the total `count` gives for the same filters.
 */
export async function pageFrom<Row, View>(
  q: PageRequest,
  read: (window: { offset: number; limit: number }) => Promise<Row[]>,
  count: () => Promise<number>,
  view: (rows: Row[]) => View[] | Promise<View[]>,
) {
  const [rows, total] = await Promise.all([read(pageWindow(q)), count()])
  return pageOf(await view(rows), total, q)
}

/**
 * Every row the filters match, read `batch` at a time through `read(offset, limit)` (the list's own query, same
 * sort), at most CSV_MAX_ROWS, each turned into its cells.
 */
export async function* csvRows<T>(
  read: (offset: number, limit: number) => Promise<T[]>,
  cells: (rows: T[]) => Promise<unknown[][]> | unknown[][],
  max = CSV_MAX_ROWS,
): AsyncGenerator<unknown[]> {
  for (let offset = 0; offset < max; offset += CSV_BATCH) {
    const rows = await read(offset, Math.min(CSV_BATCH, max - offset))
    for (const r of await cells(rows)) yield r
    if (rows.length < CSV_BATCH) return
  }
}

/** What a repository gives a console list (server/db/list.ts tableList): a window of rows in a sort, and the total. */
interface ListReads<F, K extends string, R> {
  page: (db: DbOrTx, filter: F, sort: Sort<K>, window: { offset: number; limit: number }) => Promise<R[]>
  count: (db: DbOrTx, filter: F) => Promise<number>
}

/**
 * A console list with the query's filter and sort chosen: `page` answers one page with the total (pageFrom), `csv`
 * is the export's reader of every match in the same order (csvRows) with the cells of each batch. A null filter
 * matches nothing (a search for a member who does not exist): an empty page, an empty file.
 */
export function listing<F, K extends string, R>(
  reads: ListReads<F, K, R>,
  db: DbOrTx,
  q: PageRequest & { sort: K | `-${K}` },
  filter: F | null,
) {
  const sort = parseSort(q.sort)
  const read = (offset: number, limit: number) =>
    filter === null ? Promise.resolve([]) : reads.page(db, filter, sort, { offset, limit })
  return {
    page: async <View>(view: (rows: R[]) => View[] | Promise<View[]>) =>
      filter === null
        ? pageOf<View>([], 0, q)
        : pageFrom(
            q,
            (w) => read(w.offset, w.limit),
            () => reads.count(db, filter),
            view,
          ),
    csv: (cells: CsvSource<R>['cells']): CsvSource<R> => ({ read, cells }),
  }
}

type ListQuery = PageRequest & { format: 'json' | 'csv' }

/** An export's reader (`csvRows`): one batch of rows at `offset`, and the cells of a batch. */
interface CsvSource<T> {
  read: (offset: number, limit: number) => Promise<T[]>
  cells: (rows: T[]) => Promise<unknown[][]> | unknown[][]
}

/** A console list's route: what it answers as JSON (one page) and, when it exports, as CSV (every row). */
export interface ListRouteSpec<Q extends z.ZodType<ListQuery, unknown>, R extends z.ZodType, S> {
  summary: string
  description?: string
  querystring: Q
  row: R
  /**
   * `ownScope`: the member whose own records the caller may see (a teacher's courses), null for everything; only
   * with `scope: 'list'`, which lets such callers in (server/http/auth.ts).
   */
  list: (
    query: z.output<Q>,
    ownScope: number | null,
  ) => Promise<{ list: z.input<R>[]; total: number; page: number; page_size: number }>
  scope?: 'list'
  /** The permission the list needs, when not the plugin's read permission. */
  permission?: Permission
  /**
   * format=csv: the file's name (a date is added), its header row and every row the filters match. An export
   * always needs a step-up proof (a fresh SMS code), and `permission` besides the list's own when given.
   */
  csv?: {
    name: string
    header: string[]
    /** How the export reads the rows the filters match, a batch at a time, and turns them into cells. */
    source: (query: z.output<Q>, ownScope: number | null) => CsvSource<S> | Promise<CsvSource<S>>
    permission?: Permission
  }
}

/**
 * Declares GET `url` as a console list: `?page&page_size&sort&…filters` answers a page in the envelope; with
 * `format=csv` (where `csv` is given) the same filters and sort answer a CSV file. Without `csv`, format=csv is 400.
 */
export function listRoute<Q extends z.ZodType<ListQuery, unknown>, R extends z.ZodType, S>(
  r: Pick<Routes<'admin'>, 'raw'>,
  url: string,
  spec: ListRouteSpec<Q, R, S>,
) {
  const description = [
    spec.description,
    spec.csv
      ? `format=csv: the filtered list as a CSV file (at most 10,000 rows; needs a step-up proof${spec.csv.permission ? ` and ${spec.csv.permission}` : ''}).`
      : '',
  ]
    .filter(Boolean)
    .join(' ')
  r.raw.get(
    url,
    {
      summary: spec.summary,
      ...(description && { description }),
      querystring: spec.querystring,
      response: { 200: adminPage(spec.row) },
      ...(spec.csv && { stepUp: 'export' as const }),
      ...(spec.scope && { scope: spec.scope }),
      ...(spec.permission && { permission: spec.permission }),
    },
    async (request, reply) => {
      const query = request.query as z.output<Q>
      if (query.format === 'csv') {
        if (!spec.csv) throw new AppError(Codes.BadRequest, '这个列表不能导出（format）')
        const { permission } = spec.csv
        if (permission && !can(request.principal, permission))
          throw new AppError(Codes.Forbidden, '你的角色不能导出这个列表')
        const { read, cells } = await spec.csv.source(query, request.ownScope)
        return sendCsv(reply, spec.csv.name, spec.csv.header, csvRows(read, cells))
      }
      return reply.send(ok(await spec.list(query, request.ownScope)))
    },
  )
}
