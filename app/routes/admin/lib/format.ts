// (Not shared/money.ts: a module both bundles import is split out of the learner pages' chunks; see token.ts.)

/** Beijing time of an ISO instant, `2026/11/25 14:03`. */
export function when(iso: string | null | undefined) {
  if (!iso) return '—'
  return new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false }).slice(0, -3)
}

/** Fen as yuan with two decimals, `¥169.00`. */
export function yuan(fen: number) {
  return `¥${(fen / 100).toFixed(2)}`
}

/** Yuan typed in a form (169.9) as integer fen (16990); empty stays empty. */
export function fenOf(yuan: number | null | undefined) {
  return yuan === null || yuan === undefined ? yuan : Math.round(yuan * 100)
}

/** An ISO instant as a `datetime-local` input's value in Beijing time ("2026-12-01T20:00"). */
export function beijingInput(iso: string | null | undefined) {
  if (!iso) return ''
  return new Date(new Date(iso).getTime() + 8 * 3600_000).toISOString().slice(0, 16)
}

/** A `datetime-local` value typed as Beijing time, as an ISO instant with its offset; empty: null. */
export function isoFromBeijing(value: string | null | undefined) {
  return value ? `${value}:00+08:00` : null
}

/** Seconds as `12:34`, or `1:02:03` from an hour. */
export function clock(seconds: number) {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h > 0 ? 2 : 1, '0')
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s % 60).padStart(2, '0')}`
}

/** Bytes as `12.3 MB`. */
export function bytes(n: number) {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`
  return `${Math.max(0, Math.round(n / 1024))} KB`
}
