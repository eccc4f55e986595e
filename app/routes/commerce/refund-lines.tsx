import type { z } from 'zod'
import styles from '#app/components/checkout/checkout.module.css'
import { yuan } from '#app/lib/pay.ts'
import type { RefundLineOption } from '#server/modules/refunds/refunds.schema.ts'

type Line = z.infer<typeof RefundLineOption>

const LINE_STATE: Record<Line['state'], string> = {
  available: '可退',
  watched: '已超过可退观看比例',
  requested: '退款处理中',
  refunded: '已退款',
  not_held: '不在本订单权益内',
}

/** The courses of a bundle or favourites order, each with its share: the learner ticks the ones to give back. */
export function RefundLineChooser(props: {
  lines: Line[]
  maxWatched: number
  chosen: ReadonlySet<number>
  onToggle: (itemId: number) => void
}) {
  return (
    <fieldset style={{ border: 0, margin: '0 0 12px', padding: 0 }}>
      <legend className={styles.muted} style={{ marginBottom: 4 }}>
        选择要退的课程（观看不足 {props.maxWatched}% 的课程可单独退）
      </legend>
      {props.lines.map((l) => (
        <label
          key={l.item_id}
          className={styles.row}
          data-testid="refund-line"
          style={{ cursor: l.refundable ? 'pointer' : 'default', opacity: l.refundable ? 1 : 0.6 }}
        >
          <span style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <input
              type="checkbox"
              style={{ width: 20, height: 20, flex: 'none' }}
              disabled={!l.refundable}
              checked={props.chosen.has(l.item_id)}
              onChange={() => props.onToggle(l.item_id)}
            />
            <span style={{ minWidth: 0 }}>
              {l.title}
              <span className={styles.muted} style={{ display: 'block' }}>
                已观看 {l.watched_percent}% · {LINE_STATE[l.state]}
              </span>
            </span>
          </span>
          <span className={styles.rowValue}>{yuan(l.share_fen)}</span>
        </label>
      ))}
    </fieldset>
  )
}

/** The lines to send by default: every one that can be refunded now. */
export function refundableItemIds(lines: readonly Line[] | null) {
  return new Set((lines ?? []).filter((l) => l.refundable).map((l) => l.item_id))
}

/** What the chosen lines give back, in fen. */
export function chosenAmount(lines: readonly Line[], chosen: ReadonlySet<number>) {
  return lines.filter((l) => chosen.has(l.item_id)).reduce((s, l) => s + l.share_fen, 0)
}
