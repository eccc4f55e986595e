import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Alert, App, Button, Input, Select, Space, Table, Typography, type TableProps } from 'antd'

import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import type { ListPage } from '#shared/api/admin-list.ts'
import type { Permission } from '#shared/staff/roles.ts'
import { api, download, type Query } from './client.ts'
import { useMe } from './me.ts'
import { useStepUp } from './step-up.tsx'

type Options = { value: string; label: string }[]

/** A filter above the table; its value lives in the URL query under `name`. */
type Filter =
  | { name: string; label: string; type: 'select'; options: Options }
  | { name: string; label: string; type: 'dates' }
  | { name: string; label: string; type: 'text' }

/** A names table ({ paid: '已支付' }) as a select's options, in its order. */
export const options = (names: Record<string, string>): Options =>
  Object.entries(names).map(([value, label]) => ({ value, label }))

/** A select filter of `names` (a names table or the options themselves). */
export function selectFilter(name: string, label: string, names: Record<string, string> | Options): Filter {
  return { name, label, type: 'select', options: Array.isArray(names) ? names : options(names) }
}

/** What the table asks its source for: the URL's filters, the search, the sort and the page. */
export interface TableParams {
  filters: Record<string, string>
  page: number
  pageSize: number
  sort?: string
  order?: 'asc' | 'desc'
}

interface Props<T> {
  /** The screen's title above the list, when the list is the screen, and a note under it (how the screen works). */
  title?: string
  help?: ReactNode
  /** The table's query key (tableKey) when not its `path`. */
  id?: string
  columns: TableProps<T>['columns']
  /** The rows' key (default id). */
  rowKey?: keyof T & string
  /** The console list the rows come from (server/http/admin-list.ts), with `query`'s fixed filters of the screen. */
  path: string
  query?: Query
  /** How the list's query differs from the table's state (a filter the endpoint names otherwise, a default sort). */
  params?: (p: TableParams) => TableParams
  /**
   * A button exports what the filter shows as CSV (the server streams it), after a fresh SMS code: the permission
   * the export needs (the list's own read permission, or its listRoute `exportPermission`). Staff without it see no
   * button. `own`: a list whose route serves grants that reach only the holder's records (`scope: 'list'`, a
   * teacher's courses) exports those too.
   */
  csv?: Permission | { permission: Permission; own: true }
  filters?: Filter[]
  /** The search box's placeholder; false: the list's endpoint has no search (yet). */
  search?: string | false
  toolbar?: ReactNode
  /** What an empty list says when a search or filter is on: nothing matched. */
  empty?: ReactNode
  /** What an empty list says with no search or filter: there is nothing yet (default: `empty`). */
  none?: ReactNode
  onRow?: TableProps<T>['onRow']
  /** Told the rows of each page loaded (a screen that moves through them from the keyboard). */
  onRows?: (rows: T[]) => void
  /**
   * The table keeps to the screen's width (fixed layout: long texts wrap in their column) instead of growing to its
   * content and scrolling sideways: for a list whose columns all fit (the action log at 1280 px).
   */
  fit?: boolean
  /** Reload the page every so many milliseconds while the rows call for it (work running on the server). */
  refetchInterval?: (rows: T[]) => number | false
}

// The one way a console screen reads a list (server/http/admin-list.ts answers it): the table's URL state becomes
// `?page&page_size&sort&…filters` (a leading - on the sort key sorts descending), and the same query with
// format=csv downloads what the filters show.

/** The list query of a table's state, with `extra` fixed filters of the screen. */
function listParams(p: TableParams, extra: Query = {}): Query {
  const sort = p.sort && (p.order === 'asc' ? p.sort : `-${p.sort}`)
  return { ...p.filters, ...extra, page: p.page, page_size: p.pageSize, sort }
}

/** One page of the console list at `path`. */
async function pagedLoad<T>(path: string, extra: Query | undefined, p: TableParams) {
  const page = await api.get<ListPage<T>>(path, listParams(p, extra))
  return { rows: page.list, total: page.total }
}

/** The CSV of every row of the same list the filters match. */
const csvExport = (path: string, extra: Query | undefined, p: TableParams) =>
  download(path, { ...listParams(p, extra), format: 'csv' })

/**
 * The search box's width: 260 px, wider for a placeholder that needs it (a Chinese character takes 14 px, a
 * Latin one about 8; the box's padding, its `/` hint and its button take about 110), so it reads whole.
 */
function searchWidth(placeholder: string) {
  const text = [...placeholder].reduce((w, ch) => w + (ch.charCodeAt(0) < 0x100 ? 8 : 14), 0)
  return Math.min(400, Math.max(260, text + 110))
}

/** The query key of a console table's pages (its list's path): invalidating it reloads the table. */
export const tableKey = (path: string) => ['table', path]

/** The URL parameter of the row a screen's drawer shows (not a filter). */
const DETAIL_PARAM = 'detail'

const RESERVED = new Set(['page', 'page_size', 'sort', 'order', DETAIL_PARAM])

/** The row a screen's drawer shows, kept in the URL (DETAIL_PARAM), and how to open one (null closes it). */
export function useDetailParam(): [string | null, (value: string | number | null) => void] {
  const [search, setSearch] = useSearchParams()
  const show = (value: string | number | null) => {
    const next = new URLSearchParams(search)
    if (value === null) next.delete(DETAIL_PARAM)
    else next.set(DETAIL_PARAM, String(value))
    setSearch(next)
  }
  return [search.get(DETAIL_PARAM), show]
}

/**
 * Every console list: server-side paging, sorting, filters and search, all kept in the URL
 * (a list remembers its filters: reload, back and shared links keep them), `/` focuses the search, CSV export of
 * what the filter shows. Server state goes through TanStack Query (keyed by the URL's parameters).
 */
export function ConsoleTable<T extends object>(props: Props<T>) {
  const { message } = App.useApp()
  const [search, setSearch] = useSearchParams()
  const searchRef = useRef<{ focus: () => void } | null>(null)
  const [exporting, setExporting] = useState(false)
  const stepUp = useStepUp()
  const { may, mayOwn } = useMe()
  const mayExport =
    props.csv !== undefined && (typeof props.csv === 'string' ? may(props.csv) : mayOwn(props.csv.permission))

  const filters: Record<string, string> = {}
  for (const [k, v] of search) if (!RESERVED.has(k) && v) filters[k] = v
  const params: TableParams = {
    filters,
    page: Number(search.get('page') ?? 1) || 1,
    pageSize: Number(search.get('page_size') ?? 20) || 20,
    sort: search.get('sort') ?? undefined,
    order: (search.get('order') as 'asc' | 'desc' | null) ?? undefined,
  }
  const query = useQuery({
    queryKey: [...tableKey(props.id ?? props.path), props.query ?? {}, search.toString()],
    queryFn: async () => {
      const page = await pagedLoad<T>(props.path, props.query, props.params?.(params) ?? params)
      props.onRows?.(page.rows)
      return page
    },
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (props.refetchInterval && q.state.data ? props.refetchInterval(q.state.data.rows) : false),
  })

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      if (e.key !== '/' || target?.closest('input, textarea, [contenteditable="true"]')) return
      e.preventDefault()
      searchRef.current?.focus()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  /** Changes some parameters; any change but the page starts again at the first page. */
  const update = (changes: Record<string, string | undefined>, keepPage = false) => {
    const next = new URLSearchParams(search)
    for (const [k, v] of Object.entries(changes))
      if (v) next.set(k, v)
      else next.delete(k)
    if (!keepPage) next.delete('page')
    setSearch(next, { replace: false })
  }

  const data = query.data
  const onChange: TableProps<T>['onChange'] = (pagination, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter
    const sort = s?.order ? String(s.columnKey ?? s.field) : undefined
    const order = s?.order === 'ascend' ? 'asc' : s?.order === 'descend' ? 'desc' : undefined
    if (sort !== params.sort || order !== params.order) return update({ sort, order })
    update({ page: String(pagination.current ?? 1), page_size: String(pagination.pageSize ?? 20) }, true)
  }

  const columns = props.columns?.map((given) => {
    const c = props.fit ? given : clipped(given)
    const key = String(c.key ?? '')
    // A row's actions (编辑/删除) stay in view at the right edge while a wide table scrolls under them.
    const pinned = key === 'actions' ? { ...c, fixed: 'right' as const } : c
    return c.sorter && key === params.sort
      ? { ...pinned, sortOrder: params.order === 'asc' ? ('ascend' as const) : ('descend' as const) }
      : c.sorter
        ? { ...pinned, sortOrder: null }
        : pinned
  })

  const exportCsv = async () => {
    setExporting(true)
    try {
      if (await stepUp()) await csvExport(props.path, props.query, props.params?.(params) ?? params)
    } catch (e) {
      message.error((e as Error).message)
    } finally {
      setExporting(false)
    }
  }

  const table = (
    <div className="zx-console-table">
      <Space wrap className="zx-console-filters">
        {props.search !== false && (
          <Input.Search
            ref={(el) => {
              searchRef.current = el
            }}
            allowClear
            defaultValue={filters.q}
            key={filters.q ?? ''}
            placeholder={props.search ?? '搜索'}
            aria-label="搜索"
            onSearch={(q) => update({ q: q.trim() || undefined })}
            style={{ width: searchWidth(props.search || '搜索') }}
            suffix={<kbd className="zx-console-kbd">/</kbd>}
          />
        )}
        {props.filters?.map((f) =>
          f.type === 'select' ? (
            <Select
              key={f.name}
              allowClear
              placeholder={f.label}
              aria-label={f.label}
              value={filters[f.name]}
              options={f.options}
              onChange={(v?: string) => update({ [f.name]: v })}
              style={{ minWidth: 130 }}
            />
          ) : f.type === 'text' ? (
            <Input
              key={`${f.name}:${filters[f.name] ?? ''}`}
              allowClear
              placeholder={f.label}
              aria-label={f.label}
              defaultValue={filters[f.name]}
              onPressEnter={(e) => update({ [f.name]: e.currentTarget.value.trim() || undefined })}
              onClear={() => update({ [f.name]: undefined })}
              style={{ width: 140 }}
            />
          ) : (
            // On a phone the label and both dates share the bar's width: the dates narrow rather than run past it.
            <Space.Compact key={f.name}>
              <Space.Addon>{f.label}</Space.Addon>
              {(['from', 'to'] as const).map((end) => (
                <Input
                  key={end}
                  type="date"
                  aria-label={`${f.label}${end === 'from' ? '起' : '止'}`}
                  value={filters[end] ?? ''}
                  onChange={(e) => update({ [end]: e.target.value || undefined })}
                  style={{ width: 'min(150px, calc((100vw - 150px) / 2))' }}
                />
              ))}
            </Space.Compact>
          ),
        )}
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} aria-label="刷新" />
        {mayExport && (
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv}>
            导出 CSV
          </Button>
        )}
        {props.toolbar}
      </Space>
      {query.error && <div className="zx-console-error">加载失败：{query.error.message}。请刷新重试。</div>}
      <Table<T>
        rowKey={props.rowKey ?? 'id'}
        columns={columns}
        dataSource={data?.rows ?? []}
        // A background poll keeps the rows on screen (no spinner over a table someone is reading).
        loading={query.isFetching && !(query.isRefetching && props.refetchInterval)}
        onChange={onChange}
        onRow={props.onRow}
        // As wide as its space: long texts wrap to fit it (an operator's 1280 px laptop shows every column), and
        // only a table that cannot fit even so scrolls inside its own box (max-content never wrapped, and cut off).
        // `fit`: fixed columns that never scroll (the action log sizes its columns itself).
        scroll={props.fit ? undefined : { x: true }}
        tableLayout={props.fit ? 'fixed' : 'auto'}
        size="middle"
        locale={{
          emptyText:
            Object.keys(filters).length === 0 && props.none
              ? props.none
              : (props.empty ?? '没有符合条件的记录，试试放宽筛选条件'),
        }}
        pagination={{
          current: params.page,
          pageSize: params.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (n) => `共 ${n} 条`,
        }}
      />
    </div>
  )
  return props.title ? (
    <>
      <Typography.Title level={4}>{props.title}</Typography.Title>
      {props.help && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={props.help} />}
      {table}
    </>
  ) : (
    table
  )
}

/**
 * An `ellipsis` column in a table laid out to its content: antd's ellipsis keeps the cell on one line, and a table
 * laid out automatically then makes the column as wide as its longest text (a long refund reason pushed 状态 and
 * 申请时间 past the edge). The text is cut inside a box of bounded width instead, the whole of it in the tooltip.
 */
function clipped<T>(column: NonNullable<TableProps<T>['columns']>[number]): typeof column {
  if (!column.ellipsis || 'children' in column) return column
  const { render } = column
  return {
    ...column,
    ellipsis: false,
    render: (value: unknown, record: T, index: number) => {
      const shown = (render ? render(value, record, index) : value) as ReactNode
      return (
        <div className="zx-console-clip" title={typeof shown === 'string' ? shown : undefined}>
          {shown}
        </div>
      )
    },
  }
}
