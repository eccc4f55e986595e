import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { ownedCourseIds } from '#server/modules/access/access.service.ts'
import { bundleForSale, bundlePriceFor } from '#server/modules/bundles/bundles.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'
import { courseLines, type Purchase } from './price-order.ts'

/**
 * A bundle on sale as a purchase at the member's price: the share of its paid courses they do not own yet
 * (bundles' price rule over access's ownership), split over those courses so coupons and refunds see each one.
 */
export async function bundlePurchase(
  deps: Pick<CommerceDeps, 'db' | 'now'>,
  memberId: number,
  bundleId: number,
): Promise<Purchase> {
  const { bundle, paid } = await bundleForSale(deps.db, bundleId)
  const owned = await ownedCourseIds(
    deps.db,
    memberId,
    paid.map((c) => c.id),
    deps.now(),
  )
  const price = bundlePriceFor(bundle.priceFen, paid, owned)
  if (!price) throw new AppError(Codes.CourseOwned, '套餐里的课程你都已拥有，直接去学习吧')
  const byId = new Map(paid.map((c) => [c.id, c]))
  const { items, couponLines } = courseLines(
    price.lines.map((l) => ({ ...l, title: byId.get(l.id)!.title, categoryIds: byId.get(l.id)!.categoryIds })),
  )
  return {
    kind: 'bundle',
    target: `bundle:${bundle.id}`,
    title: `套餐 · ${bundle.title}`,
    priceFen: price.amountFen,
    items,
    quitPath: `/foryou/${bundle.id}`,
    couponLines,
    pointsAllowed: true,
  }
}

/** Checkout of a bundle at the member's price (POST /foryou/pay). */
export async function checkoutBundle(deps: CommerceDeps, ctx: CheckoutContext, bundleId: number) {
  return placeOrder(deps, ctx, await bundlePurchase(deps, ctx.memberId, bundleId))
}
