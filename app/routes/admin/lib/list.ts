import type { ListPage } from '#shared/api/admin-list.ts'
import { api, download, type Query } from './client.ts'
import type { TableParams } from './console-table.tsx'

// The one way a console screen reads a list (server/http/admin-list.ts answers it): the table's URL state becomes
// `?page&page_size&sort&…filters` (a leading - on the sort key sorts descending), and the same query with
// format=csv downloads what the filters show.

/** The list query of a table's state, with `extra` fixed filters of the screen. */
function listParams(p: TableParams, extra: Query = {}): Query {
  const sort = p.sort && (p.order === 'asc' ? p.sort : `-${p.sort}`)
  return { ...p.filters, ...extra, page: p.page, page_size: p.pageSize, sort }
}

/** ConsoleTable's `load` for the console list at `path`. */
export function pagedLoad<T>(path: string, extra: Query = {}) {
  return async (p: TableParams) => {
    const page = await api.get<ListPage<T>>(path, listParams(p, extra))
    return { rows: page.list, total: page.total }
  }
}

/** ConsoleTable's `onExport` for the same list: the CSV of every row the filters match. */
export function csvExport(path: string, extra: Query = {}) {
  return (p: TableParams) => download(path, { ...listParams(p, extra), format: 'csv' })
}
