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
