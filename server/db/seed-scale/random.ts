// Deterministic randomness for the scale seed: the same seed number gives the same rows on every machine.

/** splitmix32: spreads a 32-bit value; used to derive independent streams from a seed and a name. */
function mix(x: number) {
  x = (x + 0x9e3779b9) | 0
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}

function hashName(name: string) {
  let h = 0x811c9dc5
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** A small, fast generator (sfc32) with the helpers the seed needs. */
export class Rng {
  private a: number
  private b: number
  private c: number
  private d: number

  /** An independent stream for (seed, name, index): e.g. `new Rng(seed, 'orders', memberIndex)`. */
  constructor(seed: number, name: string, index = 0) {
    const base = mix(seed ^ hashName(name)) ^ mix(index + 0x632be5ab)
    this.a = mix(base)
    this.b = mix(this.a)
    this.c = mix(this.b)
    this.d = 1
    for (let i = 0; i < 12; i++) this.next()
  }

  /** A float in [0, 1). */
  next() {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number) {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** A standard normal value (Box–Muller). */
  normal() {
    const u = 1 - this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next())
  }
}

/**
 * Draws indexes 0…n−1 with probability proportional to their weights (binary search in the cumulative sums), e.g.
 * a course by popularity or a member by activity.
 */
export class WeightedPicker {
  private readonly cumulative: Float64Array

  constructor(weights: ArrayLike<number>) {
    this.cumulative = new Float64Array(weights.length)
    let sum = 0
    for (let i = 0; i < weights.length; i++) this.cumulative[i] = sum += weights[i]!
  }

  get total() {
    return this.cumulative[this.cumulative.length - 1] ?? 0
  }

  pick(rng: Rng) {
    const target = rng.next() * this.total
    let lo = 0
    let hi = this.cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.cumulative[mid]! > target) hi = mid
      else lo = mid + 1
    }
    return lo
  }

  /**
   * Shares `total` out in proportion to the weights, exactly (the parts add up to `total`): part i is
   * floor(total·C(i)) − floor(total·C(i−1)) for the normalised cumulative weight C.
   */
  share(total: number, i: number) {
    const sum = this.total
    if (sum === 0) return 0
    const upTo = (k: number) => (k < 0 ? 0 : Math.floor((total * this.cumulative[k]!) / sum))
    return upTo(i) - upTo(i - 1)
  }
}

/** 0…n−1 shuffled (Fisher–Yates). */
export function permutation(n: number, rng: Rng) {
  const p = new Int32Array(n)
  for (let i = 0; i < n; i++) p[i] = i
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    const t = p[i]!
    p[i] = p[j]!
    p[j] = t
  }
  return p
}
