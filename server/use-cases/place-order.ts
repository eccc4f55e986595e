import type { PayMethod } from '#server/db/schema/orders.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { providerOf, type ProviderPayMethod } from '#server/integrations/payments/payments.ts'
import { memberOpenid } from '#server/modules/members/members.service.ts'
import {
  findPendingOrder,
  newOrderNo,
  openOrder,
  toCheckoutData,
  transitionOrder,
  type CheckoutAnswer,
  type OrderRow,
} from '#server/modules/orders/orders.service.ts'
import { payOpenid } from '#server/modules/wechat/wechat.service.ts'
import { reserveCouponForOrder } from '#server/modules/coupons/coupons.service.ts'
import { lockPointBalance, takePoints } from '#server/modules/points/points.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { announcePaid, fulfilOrder } from './fulfil-order.ts'
import { prepayOrder } from './prepay-order.ts'
import { priceOrder, type PriceChoices, type Purchase } from './price-order.ts'
import { closePendingOrder, orderEvents } from './order-steps.ts'

/** Who checks out, how they pay, and the choices that change the price. */
export interface CheckoutContext extends PriceChoices {
  /** points: a course priced in points, paid with them at once (/course/creditPay/{id}). */
  payMethod: ProviderPayMethod | 'points'
  clientIp: string
  sp: string | null
  /** Where the provider sends the visitor back (the address they used when trusted, else PUBLIC_URL). */
  origin?: string
}

/** A pending order is reused only while it has at least this long to live; otherwise a fresh one is made. */
const REUSE_MARGIN_MS = 2 * 60_000

/** A second tap with the same choices (or none) pays the pending order again, while it has time left. */
function reusable(pending: OrderRow, ctx: CheckoutContext, purchase: Purchase, at: Date) {
  return (
    pending.expiresAt.getTime() - at.getTime() > REUSE_MARGIN_MS &&
    pending.payMethod === ctx.payMethod &&
    pending.originalFen === purchase.priceFen &&
    (ctx.couponId === undefined || ctx.couponId === pending.couponId) &&
    (ctx.points === undefined || ctx.points === pending.pointsUsed)
  )
}

/**
 * The checkout every purchase shares (course, bundle, favourites, VIP, amount): price → coupon → points → order.
 * In one transaction that first locks the member's points balance row (one checkout per member at a time): reuse
 * the pending order for the same target when nothing changed, or close it and give its coupon and points back;
 * price the purchase; open the order with its items; reserve the coupon and spend the points; when nothing is
 * left to pay, mark it paid and grant at once. After the commit, the provider gets the prepay request (no
 * transaction is held across the network) and a replaced order is closed at its provider.
 */
export async function placeOrder(
  deps: CommerceDeps,
  ctx: CheckoutContext,
  purchase: Purchase,
): Promise<CheckoutAnswer> {
  const { db, config, providers, now } = deps
  const rules = config.payments.points
  const provider = providerOf(ctx.payMethod)
  // The member's own WeChat identity, else the openid of their last base-scope round trip (6 hours).
  const openid =
    ctx.payMethod === 'wechat_jsapi'
      ? ((await memberOpenid(db, ctx.memberId)) ?? (await payOpenid(db, ctx.memberId, now())))
      : null
  const actor = `member:${ctx.memberId}`

  const { order, reused, replaced } = await deps.transaction(async (tx) => {
    const at = now()
    // The purchase's own rows first (tuition: its pending order, scheduled payment and enrolment, locked before the
    // balance, in the order a payment being confirmed takes them).
    const keep = (await purchase.recheck?.(tx)) ?? true
    // One checkout per member at a time (the points balance row is the lock): a second tap waits for the first
    // and then finds its order, and coupons and points are counted in order.
    const balance = await lockPointBalance(tx, ctx.memberId, at)
    const pending = await findPendingOrder(tx, ctx.memberId, purchase.kind, purchase.target)
    let replacedOrder: OrderRow | null = null
    let available = balance
    if (pending) {
      if (keep && reusable(pending, ctx, purchase, at)) return { order: pending, reused: true, replaced: null }
      // Another method, coupon, points or price, or nearly expired: close it and start again (the provider is
      // told after); its coupon and points come back first so that the new order can use them.
      const closed = await closePendingOrder(tx, pending.id, 'replaced', {
        actor,
        at,
        data: { pay_method: ctx.payMethod },
      })
      if (closed) {
        replacedOrder = closed
        available = await lockPointBalance(tx, ctx.memberId, at)
      }
    }
    const q = await priceOrder(tx, rules, ctx, purchase, at, { lockedBalance: available })
    // Whether a provider is needed is known only now (coupon and points may cover everything); refusing here
    // rolls back the replaced order's closing too.
    if (q.amountFen > 0 && (!provider || !config.payments[provider].enabled))
      throw new AppError(Codes.PayMethodUnavailable)
    if (q.amountFen > 0 && ctx.payMethod === 'wechat_jsapi' && !openid) throw new AppError(Codes.WechatOpenidRequired)
    const payMethod: PayMethod = q.amountFen > 0 ? ctx.payMethod : q.points > 0 ? 'points' : 'free'
    const opened = await openOrder(
      tx,
      {
        orderNo: newOrderNo(at),
        memberId: ctx.memberId,
        kind: purchase.kind,
        target: purchase.target,
        title: purchase.title,
        amountFen: q.amountFen,
        originalFen: purchase.priceFen,
        discountFen: q.discountFen,
        pointsUsed: q.points,
        couponId: q.coupon?.couponId ?? null,
        payMethod,
        sp: ctx.sp,
        createdAt: at,
        expiresAt: new Date(at.getTime() + config.payments.orderExpireMinutes * 60_000),
        updatedAt: at,
      },
      purchase.items,
      { actor, data: { pay_method: payMethod, coupon_id: q.coupon?.couponId ?? null, points: q.points } },
    )
    if (!opened) {
      // Another tap created it a moment ago: both taps pay the same order.
      const winner = await findPendingOrder(tx, ctx.memberId, purchase.kind, purchase.target)
      if (!winner) throw new AppError(Codes.Conflict)
      return { order: winner, reused: true, replaced: replacedOrder }
    }
    // A coupon is used by one order at a time, and points are spent once: both are conditional updates.
    if (q.coupon && !(await reserveCouponForOrder(tx, q.coupon.couponId, ctx.memberId, opened.id, at)))
      throw new AppError(Codes.CouponUnavailable)
    if (q.points > 0) {
      const left = await takePoints(tx, {
        memberId: ctx.memberId,
        points: q.points,
        reason: 'order_spent',
        orderId: opened.id,
        actor,
        at,
      })
      if (left === null) throw new AppError(Codes.PointsInsufficient)
    }
    if (q.amountFen === 0) {
      // Nothing left to pay: paid here, granted in the same transaction.
      const paid = (await transitionOrder(tx, opened.id, ['pending'], 'paid', { paidAt: at }, at))!
      const granted = await fulfilOrder(tx, paid, purchase.items, at, rules)
      announcePaid(deps.events, paid, null, granted)
      await orderEvents(tx, actor, at).moved(opened.id, 'pending', 'paid', 'paid', {
        pay_method: payMethod,
        ...granted,
      })
      return { order: paid, reused: false, replaced: replacedOrder }
    }
    return { order: opened, reused: false, replaced: replacedOrder }
  })

  if (replaced) {
    const old = providerOf(replaced.payMethod)
    // Best effort: a payment that still arrives for it is handled like any payment of a closed order.
    if (old) void providers[old].close(replaced.orderNo).catch(() => {})
  }
  if (order.state === 'paid' || !provider) return toCheckoutData(order, reused, {})

  const pay = await prepayOrder(deps, order, provider, {
    quitPath: purchase.quitPath,
    openid,
    clientIp: ctx.clientIp,
    origin: ctx.origin,
  })
  return toCheckoutData(order, reused, pay)
}
