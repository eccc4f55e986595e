import { allocate } from '#shared/money.ts'

/** A paid course of a bundle with its list price. */
export interface BundleLine {
  id: number
  priceFen: number
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
