import { Space, Tag, type TableColumnType } from 'antd'
import type { ReactNode } from 'react'
import { when, yuan } from './format.ts'

// The columns console tables share: an amount, a time, a state as a tag, the member a row is about, the row's
// actions. `sort` makes a column one the list sorts by on the server (its key is the field, the list's sort key).

type Column<T> = TableColumnType<T>
type Field<T> = keyof T & string

const sorted = (field: string, sort: boolean) => (sort ? { key: field, sorter: true } : {})

/** The row's id, sortable. */
export function idColumn<T>(title = 'ID', width = 70): Column<T> {
  return { title, dataIndex: 'id', key: 'id', sorter: true, width }
}

/** An amount in fen as `¥169.00`, right-aligned; none: —. */
export function moneyColumn<T>(title: string, field: Field<T>, sort = false): Column<T> {
  const render = (fen: number | null) => (fen === null || fen === undefined ? '—' : yuan(fen))
  return { title, dataIndex: field, align: 'right', render, ...sorted(field, sort) }
}

/** An instant in Beijing time; none: —. */
export function timeColumn<T>(title: string, field: Field<T>, sort = false): Column<T> {
  return { title, dataIndex: field, render: when, ...sorted(field, sort) }
}

/** A state as a tag: its name from `names` (an unknown one as stored), its colour from `colors`. */
export function stateColumn<T>(
  title: string,
  field: Field<T>,
  names: Record<string, string>,
  colors: Record<string, string | undefined> = {},
): Column<T> {
  return { title, dataIndex: field, render: (s: string) => <Tag color={colors[s]}>{names[s] ?? s}</Tag> }
}

/** A yes/no field as a tag: green `yes`, plain `no` (在售 / 已停售). */
export function onOffColumn<T>(title: string, field: Field<T>, yes: string, no: string): Column<T> {
  return { title, dataIndex: field, render: (on: boolean) => (on ? <Tag color="green">{yes}</Tag> : <Tag>{no}</Tag>) }
}

/** The member a row is about: their phone, or their id when they have none. */
export function memberColumn<T extends { phone: string | null; member_id: number }>(): Column<T> {
  return { title: '会员', key: 'member', render: (_, r) => r.phone ?? r.member_id }
}

/**
 * The row's action links (`links` of the row and its place), side by side; spread into the columns (`...actionsColumn(…)`): no column at all when
 * `shown` is false (staff who may only read).
 */
export function actionsColumn<T>(
  links: (row: T, index: number) => ReactNode,
  shown = true,
  width?: number,
): Column<T>[] {
  return shown ? [{ title: '操作', key: 'actions', width, render: (_, row, i) => <Space>{links(row, i)}</Space> }] : []
}
