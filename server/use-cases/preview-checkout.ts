import { bundlePurchase } from './checkout-bundle.ts'
import { coursePurchase } from './checkout-course.ts'
import { favouritesPurchase, type FavouritesDeps } from './checkout-favourites.ts'
import { vipPurchase } from './checkout-vip.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { findPendingOrder } from '#server/modules/orders/orders.service.ts'
import { priceOrder } from './price-order.ts'

/** What is to be priced: one course, one bundle, favourites (null: every buyable one) or one VIP plan. */
export interface PreviewRequest {
  courseId?: number
  planId?: number
  bundleId?: number
  courseIds?: number[] | null
  /** A coupon of the member's; left out: the best one; 0: none. */
  couponId?: number
  points?: number
}

/**
 * What the purchase page shows before paying (GET …/preview): the coupons that apply (best first, the best chosen
 * unless another or none is asked for), the points that may be used, and what is left to pay. Reads only.
 */
export async function previewCheckout(deps: CommerceDeps & FavouritesDeps, memberId: number, what: PreviewRequest) {
  const rules = deps.config.payments.points
  const purchase =
    what.courseId !== undefined
      ? await coursePurchase(deps, memberId, what.courseId)
      : what.bundleId !== undefined
        ? await bundlePurchase(deps, memberId, what.bundleId)
        : what.courseIds !== undefined
          ? await favouritesPurchase(deps, memberId, what.courseIds ?? undefined)
          : await vipPurchase(deps, what.planId!)
  const couponId = what.couponId === 0 ? null : what.couponId
  // A payment left unfinished (cancelled in WeChat) keeps its order pending, holding the coupon and points; checking
  // out the same purchase again closes it first, so this page offers them.
  const pending = await findPendingOrder(deps.db, memberId, purchase.kind, purchase.target)
  const base = await priceOrder(deps.db, rules, { memberId, couponId }, purchase, deps.now(), { pending })
  const points = Math.min(what.points ?? 0, base.pointsMax)
  const pointsFen = points * rules.fenPerPoint
  return {
    title: purchase.title,
    original_fen: purchase.priceFen,
    coupons: base.options.map((o) => ({
      coupon_id: o.couponId,
      name: o.name,
      discount_fen: o.discountFen,
      expires_at: o.expiresAt.toISOString(),
    })),
    coupon_id: base.coupon?.couponId ?? null,
    discount_fen: base.discountFen,
    points_balance: base.balance,
    points_max: base.pointsMax,
    fen_per_point: rules.fenPerPoint,
    points,
    points_fen: pointsFen,
    amount_fen: base.amountFen - pointsFen,
    items: purchase.items.map((i) => ({
      course_id: i.courseId,
      vip_plan_id: i.vipPlanId,
      title: i.title,
      price_fen: i.priceFen,
    })),
  }
}
