import { describe, expect, it } from 'vitest'
import { allocate } from '#shared/money.ts'
import { bundlePrice } from './bundle-price.ts'

describe('allocate', () => {
  it('splits in proportion and adds up to the total exactly', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33])
    // 6,932.3 + 13,934.7 + 9,033.0: the spare fen goes to the largest remainder.
    expect(allocate(29_900, [9_900, 19_900, 12_900])).toEqual([6_932, 13_935, 9_033])
    for (const [total, weights] of [
      [1, [5, 5]],
      [99_999, [3, 7, 11, 13]],
      [0, [1, 2]],
      [7, [0, 0]],
    ] as const) {
      const parts = allocate(total, [...weights])
      expect(parts.reduce((s, p) => s + p, 0)).toBe(total)
      expect(parts.every((p) => Number.isInteger(p) && p >= 0)).toBe(true)
    }
  })

  it('gives nothing to nothing', () => {
    expect(allocate(500, [])).toEqual([])
  })
})

describe('bundlePrice', () => {
  const paid = [
    { id: 1, priceFen: 9_900 },
    { id: 2, priceFen: 19_900 },
    { id: 3, priceFen: 12_900 },
  ]

  it('is the bundle price when nothing is owned, split over every course', () => {
    const p = bundlePrice(29_900, paid, new Set())!
    expect(p.amountFen).toBe(29_900)
    expect(p.lines.map((l) => l.id)).toEqual([1, 2, 3])
    expect(p.lines.reduce((s, l) => s + l.priceFen, 0)).toBe(29_900)
  })

  it('charges the share of the missing courses when some are owned', () => {
    const p = bundlePrice(29_900, paid, new Set([2]))!
    // 29,900 × (9,900 + 12,900) / 42,700 = 15,965.1…
    expect(p.amountFen).toBe(15_965)
    expect(p.lines.map((l) => l.id)).toEqual([1, 3])
    expect(p.lines.reduce((s, l) => s + l.priceFen, 0)).toBe(15_965)
  })

  it('never charges more than the missing courses cost alone', () => {
    // A bundle priced above its list prices (a misconfiguration): the member pays the list price.
    expect(bundlePrice(50_000, paid, new Set([1, 2]))!.amountFen).toBe(12_900)
    expect(bundlePrice(50_000, paid, new Set())!.amountFen).toBe(42_700)
  })

  it('is null when every paid course is owned', () => {
    expect(bundlePrice(29_900, paid, new Set([1, 2, 3]))).toBeNull()
  })
})
