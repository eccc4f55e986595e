/** A paid course of a bundle with its list price. */
export interface BundleLine {
  id: number
  priceFen: number
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

/**
 * What a member pays for a bundle. Owning none of its paid courses: the bundle price. Owning some: the bundle
 * price in proportion to the list prices of the courses still missing (never more than buying those alone, at
 * least 1 fen). The amount is split over the missing courses so a refund of one of them knows its share. Null
 * when the member owns every paid course of the bundle.
 */
export function bundlePrice(bundleFen: number, paid: BundleLine[], owned: ReadonlySet<number>) {
  const missing = paid.filter((c) => !owned.has(c.id))
  if (missing.length === 0) return null
  const listFen = paid.reduce((s, c) => s + c.priceFen, 0)
  const missingFen = missing.reduce((s, c) => s + c.priceFen, 0)
  const proportional = missing.length === paid.length ? bundleFen : Math.round((bundleFen * missingFen) / listFen)
  const amountFen = Math.max(1, Math.min(proportional, missingFen))
  const shares = allocate(
    amountFen,
    missing.map((c) => c.priceFen),
  )
  return { amountFen, listFen, missingFen, lines: missing.map((c, i) => ({ id: c.id, priceFen: shares[i]! })) }
}
