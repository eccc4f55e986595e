import type { DbOrTx } from '#server/db/database.ts'
import type { OrderKind } from '#server/db/schema/orders.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { PointRules } from '#server/integrations/payments/payments-config.ts'
import { couponOptions, type CouponOption, type PricedLine } from '#server/modules/coupons/coupons.service.ts'
import type { NewOrderItem, OrderRow } from '#server/modules/orders/orders.service.ts'
import { maxPointsFor, pointBalanceOf } from '#server/modules/points/points.service.ts'

/** What is being bought, decided before any order exists (checkout-*.ts build it). */
export interface Purchase {
  kind: OrderKind
  /** What is bought as one comparable key: one pending order per member and target. */
  target: string
  title: string
  priceFen: number
  items: NewOrderItem[]
  /** Where Alipay's "back" button goes. */
  quitPath: string
  /** The courses coupons are matched against, at the price each sells for here; null: coupons do not apply. */
  couponLines: PricedLine[] | null
  pointsAllowed: boolean
  /** A course bought for exactly this many points instead of money: no coupon, nothing left to pay. */
  pointsPrice?: number
  /**
   * Checked inside the checkout's transaction before the order opens (before the member's lock): a purchase whose
   * rules can change meanwhile locks and re-checks them here (tuition: an exit asked for). False: a pending order
   * for the target is not reused (a choice the provider is told changed: tuition's Huabei periods).
   */
  recheck?: (tx: DbOrTx) => Promise<boolean>
}

/** The member's choices at checkout that change the price. */
export interface PriceChoices {
  memberId: number
  /** A coupon of the member's (member coupon id); undefined: the best one that applies; null: none. */
  couponId?: number | null
  /** Exactly this many points towards the price (at most the balance and the configured share). */
  points?: number
}

/** The price of a purchase for a member now. */
export interface Quote {
  options: CouponOption[]
  coupon: CouponOption | null
  discountFen: number
  balance: number
  pointsMax: number
  points: number
  pointsFen: number
  amountFen: number
}

/** Several courses in one order, each at its price here: the order's items and what coupons see. */
export function courseLines(lines: { id: number; title: string; priceFen: number; categoryIds: number[] }[]) {
  return {
    items: lines.map((l) => ({ courseId: l.id, vipPlanId: null, vipDays: null, title: l.title, priceFen: l.priceFen })),
    couponLines: lines.map((l) => ({ id: l.id, categoryIds: l.categoryIds, priceFen: l.priceFen })),
  }
}

/**
 * What the member has to spend on a purchase: the balance a checkout transaction read when it locked the row (so
 * concurrent checkouts see each other's spending; a pending order for the purchase is closed by then), or, for a
 * preview, the balance read here plus what the member's pending order for the same purchase holds (its points and
 * coupon), which checking out again gives back first.
 */
export type Spendable = { lockedBalance: number } | { pending: Pick<OrderRow, 'id' | 'pointsUsed'> | null }

/**
 * The price of a purchase for a member now, in this order: the list price, the coupon (the chosen one, or by
 * default the best that covers it, or none when `couponId` is null), then `points` of the member's points at most
 * up to the configured share of what is left.
 */
export async function priceOrder(
  tx: DbOrTx,
  rules: PointRules,
  choices: PriceChoices,
  purchase: Purchase,
  at: Date,
  spendable: Spendable,
): Promise<Quote> {
  const pending = 'pending' in spendable ? spendable.pending : null
  const readBalance = async () =>
    'lockedBalance' in spendable
      ? spendable.lockedBalance
      : (await pointBalanceOf(tx, choices.memberId)) + (pending?.pointsUsed ?? 0)
  if (purchase.pointsPrice !== undefined) {
    const price = purchase.pointsPrice
    const balance = await readBalance()
    if (choices.couponId) throw new AppError(Codes.CouponUnavailable, '积分兑换不能使用优惠券')
    if (balance < price)
      throw new AppError(Codes.PointsInsufficient, `积分不足：兑换需要 ${price} 积分，当前余额 ${balance} 积分`)
    return {
      options: [],
      coupon: null,
      discountFen: 0,
      balance,
      pointsMax: price,
      points: price,
      pointsFen: 0,
      amountFen: 0,
    }
  }
  const options = purchase.couponLines
    ? await couponOptions(tx, choices.memberId, purchase.couponLines, at, pending?.id)
    : []
  let chosen: CouponOption | null = null
  if (typeof choices.couponId === 'number') {
    chosen = options.find((o) => o.couponId === choices.couponId) ?? null
    if (!chosen) throw new AppError(Codes.CouponUnavailable)
  } else if (choices.couponId === undefined) chosen = options[0] ?? null
  const afterCoupon = purchase.priceFen - (chosen?.discountFen ?? 0)
  const balance = purchase.pointsAllowed ? await readBalance() : 0
  const max = purchase.pointsAllowed ? maxPointsFor(afterCoupon, Number.MAX_SAFE_INTEGER, rules) : 0
  const points = choices.points ?? 0
  if (points > max) throw new AppError(Codes.BadRequest, `最多可使用 ${max} 积分`, { field: 'points' })
  if (points > balance) throw new AppError(Codes.PointsInsufficient)
  const pointsFen = points * rules.fenPerPoint
  return {
    options,
    coupon: chosen,
    discountFen: chosen?.discountFen ?? 0,
    balance,
    pointsMax: Math.min(max, balance),
    points,
    pointsFen,
    amountFen: afterCoupon - pointsFen,
  }
}
