import type { Range } from '#server/modules/catalogue/search.schema.ts'
import styles from './search-box.module.css'

/** Text with the given [start, end) ranges marked; ranges outside the text are ignored. */
export function Highlighted({ text, ranges }: { text: string; ranges: Range[] }) {
  const parts: { text: string; mark: boolean }[] = []
  let at = 0
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const start = Math.max(r.start, at)
    const end = Math.min(r.end, text.length)
    if (end <= start) continue
    if (start > at) parts.push({ text: text.slice(at, start), mark: false })
    parts.push({ text: text.slice(start, end), mark: true })
    at = end
  }
  if (at < text.length) parts.push({ text: text.slice(at), mark: false })
  return (
    <>
      {parts.map((p, i) =>
        p.mark ? (
          <mark key={i} className={styles.mark}>
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  )
}
