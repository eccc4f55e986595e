/** Prices are integer fen (DESIGN.md). Shows yuan without trailing zeros: 3900 → "39", 3990 → "39.9", 5 → "0.05". */
export function formatYuan(fen: number): string {
  if (!Number.isInteger(fen)) return '0'
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(fen)
  const yuan = Math.floor(abs / 100)
  const cents = abs % 100
  if (cents === 0) return `${sign}${yuan}`
  return `${sign}${yuan}.${String(cents).padStart(2, '0').replace(/0$/, '')}`
}
