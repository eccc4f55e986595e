import { z } from 'zod'
import type { DbOrTx } from '#server/db/database.ts'
import { can, type Permission } from '#shared/staff/roles.ts'
import { AppError } from './app-error.ts'
import { Codes } from './codes.ts'
import { sendCsv } from './csv.ts'
import { emptyEnvelope, envelope, ok } from './envelope.ts'
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

/** One page of a console list, as adminPage describes it. */
interface Page<Row> {
  list: Row[]
  total: number
  page: number
  page_size: number
}

/** A page as adminPage describes it. */
export function pageOf<T>(list: T[], total: number, q: PageRequest): Page<T> {
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
 * is the export's reader of every match in the same order (csvRows) with the file's header and the cells of each
 * batch. A null filter matches nothing (a search for a member who does not exist): an empty page, an empty file.
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
    csv: (header: string[], cells: CsvSource<R>['cells']): CsvSource<R> => ({ header, read, cells }),
  }
}

type ListQuery = PageRequest & { format: 'json' | 'csv' }

/** An export's reader (`csvRows`): the file's header row, one batch of rows at `offset`, and the cells of a batch. */
export interface CsvSource<T> {
  header: string[]
  read: (offset: number, limit: number) => Promise<T[]>
  cells: (rows: T[]) => Promise<unknown[][]> | unknown[][]
}

/**
 * A console list as its service answers it: `page`, one page of a query; `csv`, where the list exports, every row
 * the same query matches with the file's header (the header and the cells come from one place, so their columns
 * cannot drift apart). `ownScope`: the member whose own records the caller may see (a teacher's courses), null for
 * everything.
 */
interface ConsoleList<Q, Row, S = never> {
  page: (query: Q, ownScope: number | null) => Promise<Page<Row>>
  csv?: (query: Q, ownScope: number | null) => CsvSource<S> | Promise<CsvSource<S>>
}

/** A console list's route: what it answers as JSON (one page) and, when it exports, as CSV (every row). */
export interface ListRouteSpec<Q extends z.ZodType<ListQuery, unknown>, R extends z.ZodType, S> {
  summary: string
  description?: string
  querystring: Q
  row: R
  /**
   * What the list answers: one page (a function), or the service's ConsoleList, which exports too. With `scope:
   * 'list'`, which lets in callers who may see only their own records (server/http/auth.ts), `ownScope` is theirs.
   * format=csv (where the ConsoleList has `csv`) answers its header and every row the filters match, in a file
   * named after the list's path (csvName); an export always needs a step-up proof (a fresh SMS code).
   */
  list: ConsoleList<z.output<Q>, z.input<R>, S>['page'] | ConsoleList<z.output<Q>, z.input<R>, S>
  scope?: 'list'
  /** The permission the list needs, when not the plugin's read permission. */
  permission?: Permission
  /** The permission an export needs besides the list's own. */
  exportPermission?: Permission
}

/** The name of a list's CSV file: its path below /admin/ with `-` for `/` (a date is added when it is sent). */
function csvName(url: string) {
  return url.replace(/^\/admin\//, '').replaceAll('/', '-')
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
  const { page, csv } = typeof spec.list === 'function' ? { page: spec.list, csv: undefined } : spec.list
  const description = [
    spec.description,
    csv
      ? `format=csv: the filtered list as a CSV file (at most 10,000 rows; needs a step-up proof${spec.exportPermission ? ` and ${spec.exportPermission}` : ''}).`
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
      ...(csv && { stepUp: 'export' as const }),
      ...(spec.scope && { scope: spec.scope }),
      ...(spec.permission && { permission: spec.permission }),
    },
    async (request, reply) => {
      const query = request.query as z.output<Q>
      if (query.format === 'csv') {
        if (!csv) throw new AppError(Codes.BadRequest, '这个列表不能导出', { field: 'format' })
        const permission = spec.exportPermission
        if (permission && !can(request.principal, permission))
          throw new AppError(Codes.Forbidden, '你的角色不能导出这个列表')
        const { header, read, cells } = await csv(query, request.ownScope)
        return sendCsv(reply, csvName(url), header, csvRows(read, cells))
      }
      return reply.send(ok(await page(query, request.ownScope)))
    },
  )
}

/**
 * What keeps a record operators list and edit (a player popup, an overlay): one page of its console list, and
 * adding, changing and (where records may go) removing one, each answering the record as the list shows it.
 */
export interface RecordStore<Q, Row, C, E> {
  list(query: Q): Promise<Page<Row>>
  create(body: C): Promise<Row>
  patch(id: number, body: E): Promise<Row>
  /** Removes one; answers nothing, or (with the spec's `remove.answersRecord`) the record as it was. */
  remove?(id: number): Promise<Row | void>
}

/** A listed record's routes (listedRecords): the list's docs and schemas, and what adding, changing, removing say. */
interface ListedRecordsSpec<Q extends z.ZodType<ListQuery, unknown>, R extends z.ZodType, C, E> extends Omit<
  ListRouteSpec<Q, R, never>,
  'list' | 'exportPermission' | 'scope'
> {
  create: { summary: string; body: C }
  edit: { summary: string; body: E }
  /** DELETE `url/:id`, answering nothing or, with `answersRecord`, the removed record; the store must remove. */
  remove?: { summary: string; answersRecord?: boolean }
}

/**
 * The routes of a record operators keep in a console list, served by its store: GET `url` is the list (listRoute:
 * paged, sorted, filtered), POST `url` adds one, PATCH `url/:id` changes one and DELETE `url/:id` removes one
 * (r.records); adding and changing answer the record as a row of the list.
 */
export function listedRecords<
  Q extends z.ZodType<ListQuery, unknown>,
  R extends z.ZodType,
  C extends z.ZodType,
  E extends z.ZodType,
>(
  r: Pick<Routes<'staff'>, 'raw' | 'records'>,
  url: string,
  store: RecordStore<z.output<Q>, z.input<R>, z.output<C>, z.output<E>>,
  { create, edit, remove, ...list }: ListedRecordsSpec<Q, R, C, E>,
) {
  if (remove && !store.remove) throw new Error(`DELETE ${url}/:id: the store removes nothing`)
  listRoute(r, url, { ...list, list: (query) => store.list(query) })
  // Typed by its data alone, unknown here: the store's signature carries the row's type from the zod schema.
  const response = envelope(list.row) as z.ZodType as z.ZodType<unknown, { data: unknown }>
  // An empty answer fits the record's type too: the store says which it gives (`remove.answersRecord`).
  const removed = remove?.answersRecord ? response : emptyEnvelope
  r.records<typeof response, z.ZodType, undefined, z.ZodType, C, E, typeof response>(url, {
    response,
    create: { ...create, handler: (body) => store.create(body) },
    edit: { ...edit, handler: (id, body) => store.patch(id, body) },
    ...(remove && {
      remove: {
        summary: remove.summary,
        response: removed,
        handler: async (id: number) => store.remove?.(id),
      },
    }),
  })
}
