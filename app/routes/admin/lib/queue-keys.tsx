import { useEffect, useRef, useState, type RefObject } from 'react'

// A console queue worked from the keyboard (issue 13 §3): J or ↓ moves to the next row, K or ↑ to the previous one,
// and the screen's own keys (Enter opens the row, A keeps a comment…) act on the current row. `/` focusing the
// search is ConsoleTable's. Nothing fires while someone types in a field or works in a dialog or a drawer.

/** The parts of a key press the queue looks at (a KeyboardEvent; plain objects in tests). */
export interface KeyPress {
  key: string
  target: EventTarget | null
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
}

const closest = (target: EventTarget | null, selector: string) =>
  (target as Element | null)?.closest?.(selector) != null

/**
 * What a key press does in a queue: `next`, `previous`, one of the screen's `keys` (lower case, or `Enter`), or
 * null: a modifier is held, the press belongs to a field, a dialog or a drawer, Enter is pressed on a button or a
 * link (which it clicks), or the key is not a shortcut.
 */
export function queueAction(e: KeyPress, keys: readonly string[]): string | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  if (closest(e.target, 'input, textarea, select, [contenteditable="true"], .ant-modal, .ant-drawer')) return null
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key
  if (key === 'j' || key === 'ArrowDown') return 'next'
  if (key === 'k' || key === 'ArrowUp') return 'previous'
  if (key === 'Enter' && closest(e.target, 'button, a, [role="button"]')) return null
  return keys.includes(key) ? key : null
}

/**
 * A queue's keyboard: give `onRows` to ConsoleTable (the rows of each page) and `onRow` (the current row
 * highlighted, a click makes a row current); `actions` are the screen's keys, each acting on the current row.
 * `paused` holds the shortcuts while the screen asks something (a confirmation).
 */
export function useQueueKeys<T>(
  rowKey: (row: T) => string | number,
  actions: Record<string, (row: T) => void>,
  paused?: RefObject<boolean>,
) {
  const [rows, setRows] = useState<T[]>([])
  const [cursor, setCursor] = useState(0)
  const current = rows.length ? rows[Math.min(cursor, rows.length - 1)] : undefined
  const latest = useRef({ rows, current, actions })
  useEffect(() => {
    latest.current = { rows, current, actions }
  })

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (paused?.current) return
      const { rows: list, current: row, actions: act } = latest.current
      const action = queueAction(e, Object.keys(act))
      if (!action) return
      e.preventDefault()
      if (action === 'next') setCursor((i) => Math.min(i + 1, Math.max(list.length - 1, 0)))
      else if (action === 'previous') setCursor((i) => Math.max(i - 1, 0))
      else if (row !== undefined) act[action]!(row)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [paused])

  return {
    current,
    onRows: (page: T[]) => {
      setRows(page)
      setCursor(0)
    },
    onRow: (row: T) => ({
      className: current !== undefined && rowKey(row) === rowKey(current) ? 'zx-console-current' : undefined,
      onClick: () => setCursor(rows.findIndex((r) => rowKey(r) === rowKey(row))),
    }),
  }
}

/**
 * The queue's shortcuts as a visible hint: `/` (with `search`), J/↓ and K/↑, then the screen's own `keys` (the
 * key and what it does).
 */
export function KeyHint(props: { search?: boolean; keys: Record<string, string>; note?: string }) {
  const keys = { ...(props.search && { '/': '搜索' }), 'J / ↓': '下一条', 'K / ↑': '上一条', ...props.keys }
  return (
    <span>
      快捷键：
      {Object.entries(keys).map(([key, label]) => (
        <span key={key}>
          <kbd className="zx-console-kbd">{key}</kbd> {label}{' '}
        </span>
      ))}
      {props.note}
    </span>
  )
}
