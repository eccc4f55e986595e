import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { providerOf } from '#server/integrations/payments/payments.ts'
import { memberOpenid } from '#server/modules/members/members.service.ts'
import { findOrderByNo, toCheckoutData, type CheckoutAnswer } from '#server/modules/orders/orders.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { prepayOrder } from './prepay-order.ts'

/** An order this close to its end is not handed to the provider again: the member would pay into a closing order. */
const RESUME_MARGIN_MS = 60_000

/**
 * "继续支付" on one of the member's pending orders (POST /orders/pay), whatever it bought (course, bundle,
 * favourites, VIP, amount): the same order, with its price, coupon and points as they were, is handed to its
 * provider again with its own method, and the client pays it as at checkout. Nothing is written: the order and its
 * reservations stay as placed; a payment is confirmed by the provider's notification as usual.
 *
 * Not confirmed in WeChat Pay's documentation: a repeated prepay of the same out_trade_no with the same parameters
 * is accepted (developers report it within about two hours; changed parameters answer "201 商户订单号重复"). The
 * checkout's reuse of a pending order (place-order.ts) relies on the same; if the provider refuses, the member gets
 * PaymentProviderFailed and the order page offers "换一种方式支付", the checkout that replaces the order.
 */
export async function resumePayment(
  deps: CommerceDeps,
  memberId: number,
  orderNo: string,
  clientIp: string,
  origin?: string,
): Promise<CheckoutAnswer> {
  const { db, config, now } = deps
  const order = await findOrderByNo(db, orderNo)
  if (!order || order.memberId !== memberId) throw new AppError(Codes.NotFound, '订单不存在')
  if (order.state !== 'pending') throw new AppError(Codes.OrderNotPending)
  if (order.expiresAt.getTime() - now().getTime() < RESUME_MARGIN_MS)
    throw new AppError(Codes.OrderNotPending, '订单即将超时关闭，请重新下单')
  const provider = providerOf(order.payMethod)
  if (!provider || !config.payments[provider].enabled) throw new AppError(Codes.PayMethodUnavailable)
  const openid = order.payMethod === 'wechat_jsapi' ? await memberOpenid(db, memberId) : null
  if (order.payMethod === 'wechat_jsapi' && !openid) throw new AppError(Codes.WechatOpenidRequired)
  const pay = await prepayOrder(deps, order, provider, {
    quitPath: `/order/${order.orderNo}`,
    openid,
    clientIp,
    origin,
  })
  return toCheckoutData(order, true, pay)
}
