import type { PointRules } from '#server/integrations/payments/payments-config.ts'

/** How many points pay for part of `amountFen`: at most the balance and at most `maxPercent` of the amount. */
export function pointsFor(amountFen: number, balance: number, rules: PointRules) {
  const capFen = Math.floor((amountFen * rules.maxPercent) / 100)
  const points = Math.max(0, Math.min(balance, Math.floor(capFen / rules.fenPerPoint)))
  return { points, fen: points * rules.fenPerPoint }
}

/** Points a paid amount earns (rounded down). */
export function pointsEarned(amountFen: number, rules: PointRules) {
  return Math.floor((amountFen * rules.earnPerYuan) / 100)
}
