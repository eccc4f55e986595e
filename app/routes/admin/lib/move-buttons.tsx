import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons'
import { Button } from 'antd'

/** `ids` with the one at `index` moved by `delta` places (the reorder buttons). */
function moved<T>(ids: T[], index: number, delta: -1 | 1) {
  const next = [...ids]
  const to = index + delta
  if (to < 0 || to >= next.length) return next
  ;[next[index], next[to]] = [next[to]!, next[index]!]
  return next
}

/**
 * The 上移/下移 buttons of the row at `index` in an ordered list: `onMove` gets `items` in their new order. An
 * array (not a component) so that a surrounding antd Space spaces the two buttons as two items.
 */
export function moveButtons<T>(items: T[], index: number, onMove: (next: T[]) => void) {
  return ([-1, 1] as const).map((d) => (
    <Button
      key={d}
      size="small"
      aria-label={d < 0 ? '上移' : '下移'}
      icon={d < 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
      disabled={index + d < 0 || index + d >= items.length}
      onClick={() => onMove(moved(items, index, d))}
    />
  ))
}
