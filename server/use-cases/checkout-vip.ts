import { vipPlanForSale } from '#server/modules/vip/vip.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'
import type { Purchase } from './price-order.ts'

/** A VIP plan on sale as a purchase: its days frozen into the order item (the plan may change later). */
export async function vipPurchase(deps: Pick<CommerceDeps, 'db'>, planId: number): Promise<Purchase> {
  const plan = await vipPlanForSale(deps.db, planId)
  const title = `VIP 会员 · ${plan.name}`
  return {
    kind: 'vip',
    target: `vip:${plan.id}`,
    title,
    priceFen: plan.priceFen,
    items: [{ courseId: null, vipPlanId: plan.id, vipDays: plan.days, title, priceFen: plan.priceFen }],
    quitPath: '/vipBuy',
    couponLines: null,
    pointsAllowed: true,
  }
}

/** Checkout of a VIP plan on sale (POST /pay/vip): no coupons, points allowed. */
export async function checkoutVip(deps: CommerceDeps, ctx: CheckoutContext, planId: number) {
  return placeOrder(deps, ctx, await vipPurchase(deps, planId))
}
