import crypto from 'node:crypto'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'

/**
 * Checkout of a given amount with a title (POST /pay/amount: a link staff send for tuition or a deposit): no
 * coupons, no points; the title is part of what makes two taps one order.
 */
export async function checkoutAmount(deps: CommerceDeps, ctx: CheckoutContext, amountFen: number, title: string) {
  const digest = crypto.createHash('sha256').update(title).digest('hex').slice(0, 16)
  return placeOrder(deps, ctx, {
    kind: 'amount',
    target: `amount:${amountFen}:${digest}`,
    title,
    priceFen: amountFen,
    items: [{ courseId: null, vipPlanId: null, vipDays: null, title, priceFen: amountFen }],
    quitPath: '/PayAmount',
    couponLines: null,
    pointsAllowed: false,
  })
}
