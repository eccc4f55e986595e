import { useQuery } from '@tanstack/react-query'
import { Table, type TableColumnType, type TableProps } from 'antd'
import type { ReactNode } from 'react'
import { api, type Query } from './client.ts'
import { useWrite } from './editing.ts'
import { ListHeader } from './list-header.tsx'
import { moveButtons } from './move-buttons.tsx'

// The console's short lists, read whole (no server paging): categories, teachers, bundles, the home feed's sections
// and items, hot words. Most of them are in an order operators set with 上移/下移.

/** A list read whole: its rows as one table, loading while `fetching`, `empty` when there are none. */
export function WholeTable<T extends object>(
  props: Omit<TableProps<T>, 'dataSource' | 'loading' | 'locale'> & { rows: T[]; fetching: boolean; empty: ReactNode },
) {
  const { rows, fetching, empty, ...table } = props
  return (
    <Table<T>
      rowKey="id"
      dataSource={rows}
      loading={fetching}
      pagination={false}
      locale={{ emptyText: empty }}
      {...table}
    />
  )
}

/**
 * A list in the order operators give it: GET `path` (with `query`) answers `{ list }` in that order, POST
 * `orderPath` `{ ids }` sets a new one. `move(i)` is the 上移/下移 buttons of row `i`.
 */
export function useOrderedList<T extends { id: number }>(
  key: unknown[],
  path: string,
  orderPath: string,
  opts: { query?: Query; enabled?: boolean } = {},
) {
  const read = useQuery({
    queryKey: key,
    queryFn: () => api.get<{ list: T[] }>(path, opts.query),
    enabled: opts.enabled ?? true,
  })
  const list = read.data?.list ?? []
  const order = useWrite((ids: number[]) => api.post(orderPath, { ids }), '已调整顺序', [key])
  const ids = list.map((row) => row.id)
  return { read, list, move: (i: number) => moveButtons(ids, i, order.mutate) }
}

/**
 * A `useOrderedList` list as its table; `numbered`: a first 顺序 column of that width showing each row's place
 * (from 1).
 */
export function OrderedTable<T extends { id: number }>(
  props: Omit<Parameters<typeof WholeTable<T>>[0], 'rows' | 'fetching'> & {
    of: ReturnType<typeof useOrderedList<T>>
    numbered?: number
  },
) {
  const { of, numbered, columns = [], ...table } = props
  const place: TableColumnType<T> = { title: '顺序', key: 'n', width: numbered, render: (_, __, i) => i + 1 }
  return (
    <WholeTable<T>
      rows={of.list}
      fetching={of.read.isFetching}
      columns={numbered === undefined ? columns : [place, ...columns]}
      {...table}
    />
  )
}

/** A screen of one ordered list: its head (title, `extra`, add button, load error) over its table in a white box. */
export function OrderedListScreen<T extends { id: number }>(
  props: Omit<Parameters<typeof OrderedTable<T>>[0], 'title'> & Omit<Parameters<typeof ListHeader>[0], 'error'>,
) {
  const { title, extra, add, ...table } = props
  return (
    <>
      <ListHeader title={title} extra={extra} add={add} error={table.of.read.error} />
      <div className="zx-console-table">
        <OrderedTable<T> {...table} />
      </div>
    </>
  )
}
