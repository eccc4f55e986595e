// Money is integer fen (1/100 CNY) everywhere (DESIGN.md). These are the only conversions to and from yuan text,
// used by the server (provider wire formats, CSV exports) and the browser (prices on screen).

/** For people: yuan without trailing zeros. 3900 → "39", 3990 → "39.9", 5 → "0.05", -150 → "-1.5". */
export function formatYuan(fen: number): string {
  if (!Number.isInteger(fen)) return '0'
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  const yuan = Math.floor(abs / 100)
  const cents = abs % 100
  if (cents === 0) return `${sign}${yuan}`
  return `${sign}${yuan}.${String(cents).padStart(2, '0').replace(/0$/, '')}`
}

/** For machines (Alipay amounts, CSV, cashier pages): always two decimals. 3990 → "39.90". Throws on non-fen. */
export function fenToYuan(fen: number): string {
  if (!Number.isInteger(fen) || fen < 0) throw new Error(`not an amount in fen: ${fen}`)
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`
}

/** For columns of figures (sales, totals): two decimals and thousands separators. 416000 → "4,160.00", -150 → "-1.50". */
export function formatFigure(fen: number): string {
  if (!Number.isInteger(fen)) return '0.00'
  const [yuan, cents] = fenToYuan(Math.abs(fen)).split('.')
  return `${fen < 0 ? '-' : ''}${yuan!.replace(/\B(?=(\d{3})+$)/g, ',')}.${cents}`
}

/** A plain yuan amount with at most two decimals ("39", "39.9", "39.90") in fen, or null for anything else. */
export function yuanToFen(yuan: string | undefined): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(yuan ?? '')
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/**
 * Splits `totalFen` over `weights` in proportion, in whole fen that add up to exactly `totalFen` (largest
 * remainders get the spare fen; ties go to the earlier line).
 */
export function allocate(totalFen: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0)
  if (weights.length === 0) return []
  if (sum === 0) return weights.map((_, i) => (i === 0 ? totalFen : 0))
  const exact = weights.map((w) => (totalFen * w) / sum)
  const parts = exact.map(Math.floor)
  let spare = totalFen - parts.reduce((s, p) => s + p, 0)
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i)
  for (const { i } of order) {
    if (spare === 0) break
    parts[i]! += 1
    spare -= 1
  }
  return parts
}
