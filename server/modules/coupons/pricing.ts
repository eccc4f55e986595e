import type { CouponTemplateRow } from './coupons.repository.ts'

/** What a coupon template takes off a price: 0 when the minimum spend is not met. Never more than the price. */
export function couponDiscount(
  t: Pick<CouponTemplateRow, 'kind' | 'amountOffFen' | 'percentOff' | 'maxOffFen' | 'minSpendFen'>,
  priceFen: number,
) {
  if (priceFen < t.minSpendFen) return 0
  const off = t.kind === 'amount' ? (t.amountOffFen ?? 0) : Math.floor((priceFen * (t.percentOff ?? 0)) / 100)
  const capped = t.kind === 'percent' && t.maxOffFen !== null ? Math.min(off, t.maxOffFen) : off
  return Math.max(0, Math.min(capped, priceFen))
}

/** Whether a template covers a course: every course, the course's category (or its parent), or listed courses. */
export function couponCovers(
  t: Pick<CouponTemplateRow, 'scope' | 'scopeIds'>,
  course: { id: number; categoryIds: number[] },
) {
  if (t.scope === 'all') return true
  if (t.scope === 'courses') return t.scopeIds.includes(course.id)
  return course.categoryIds.some((c) => t.scopeIds.includes(c))
}

/** One thing in an order as coupons see it: the course, its categories (and their parents), what it sells for. */
export interface PricedLine {
  id: number
  categoryIds: number[]
  priceFen: number
}

/**
 * What a coupon takes off an order of several courses: its minimum spend and its discount count only the lines it
 * covers (a category coupon on a bundle discounts that category's share). For one course this is `couponDiscount`.
 */
export function couponDiscountOn(
  t: Parameters<typeof couponDiscount>[0] & Parameters<typeof couponCovers>[0],
  lines: PricedLine[],
) {
  const covered = lines.reduce((sum, line) => sum + (couponCovers(t, line) ? line.priceFen : 0), 0)
  return covered > 0 ? couponDiscount(t, covered) : 0
}
