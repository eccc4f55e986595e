import type { z } from 'zod'
import type * as orders from '#server/modules/orders/orders.schema.ts'
import { api } from './api.ts'
import { formatYuan } from '#shared/money.ts'
import { orderStateNames } from '#shared/order-states.ts'
import { Platform, type PlatformCode } from './platform.ts'

/**
 * The browser side of paying (issue 4): which methods this browser may use, creating the order with an
 * Idempotency-Key, and handing the member to the provider (WeChat JSAPI bridge, H5 page, Native QR, Alipay).
 * The API shapes are server/modules/orders/orders.schema.ts's, imported as types only.
 */

export type ProviderPayMethod = z.infer<typeof orders.ProviderPayMethod>
export type JsapiParams = z.infer<typeof orders.JsapiParams>
/** POST /api/pay/…: the order and how to pay it. */
export type Checkout = z.infer<typeof orders.CheckoutData>
/** GET …/preview: the price with coupons and points, and what the order would hold. */
export type Preview = z.infer<typeof orders.PreviewData>
export type Order = z.infer<typeof orders.OrderView>
export type OrderEvent = z.infer<typeof orders.OrderEventView>
export type PayMethod = Order['pay_method']
export type OrderKind = Order['kind']
export type OrderState = Order['state']

export const STATE_LABEL: Record<OrderState, string> = orderStateNames

/**
 * An order's state as the member reads it, its newest refund included: 退款审核中 while an operator decides,
 * 退款中 while the money goes back, 退款失败 when the provider refused it (the order itself is still paid); `tone`
 * picks the colour class (order-list.module.css `state_<tone>`). `note`: why a refund failed or was refused.
 */
export function orderStatus(o: Pick<Order, 'state' | 'refund'>): { label: string; tone: string; note: string | null } {
  const r = o.refund
  if (r?.state === 'requested' && o.state === 'paid') return { label: '退款审核中', tone: 'refunding', note: null }
  if (r?.state === 'processing') return { label: '退款中', tone: 'refunding', note: null }
  if (r?.state === 'failed') return { label: '退款失败', tone: 'failed', note: r.note }
  if (r?.state === 'rejected' && o.state === 'paid')
    return { label: STATE_LABEL[o.state], tone: o.state, note: `退款未通过：${r.note ?? '审核未通过'}` }
  return { label: STATE_LABEL[o.state], tone: o.state, note: null }
}

export const METHOD_LABEL: Record<PayMethod, string> = {
  wechat_jsapi: '微信支付',
  wechat_h5: '微信支付',
  wechat_native: '微信扫码支付',
  alipay_wap: '支付宝',
  points: '积分抵扣',
  free: '优惠券抵扣',
}

export const EVENT_LABEL: Record<string, string> = {
  created: '下单',
  paid: '支付成功',
  replaced: '已被新订单替代',
  expired: '超时未支付，已关闭',
  closed: '订单关闭',
  late_payment_reopened: '关闭后收到付款，订单恢复',
  late_payment_refund: '关闭后收到付款，自动退款',
  paid_but_owned_refund: '已拥有该内容，付款自动退回',
  double_payment_refund: '重复付款，自动退回',
  owned_courses_refund: '部分课程已拥有，差价自动退回',
  refund_retried: '退款重新发起',
  refund_requested: '申请退款',
  refund_approved: '退款已同意',
  refund_rejected: '退款被拒绝',
  refund_succeeded: '退款成功',
  refund_failed: '退款失败',
}

/** The methods offered on this platform, the first being the default (spec 9 platform codes). */
export function payMethodsFor(platform: PlatformCode): ProviderPayMethod[] {
  if (platform === Platform.wechat) return ['wechat_jsapi']
  if (platform === Platform.desktop) return ['wechat_native']
  return ['wechat_h5', 'alipay_wap']
}

/** "¥39.9" */
export function yuan(fen: number): string {
  return `¥${formatYuan(fen)}`
}

/** One key per tap of the pay button: a retry of the same tap replays the first answer instead of paying twice. */
export function idempotencyKey(): string {
  const c = globalThis.crypto
  if (c && typeof c.randomUUID === 'function') return c.randomUUID()
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`
}

/** POST /api/pay/{course|vip|amount} with an Idempotency-Key: a repeated tap gets the first answer back. */
export async function createOrder(
  path: '/pay/course' | '/pay/vip' | '/pay/amount' | '/pay/tuition' | '/foryou/pay' | '/fav/pay' | '/orders/pay',
  body: Record<string, unknown>,
  key: string,
): Promise<Checkout> {
  return api.post<Checkout>(path, body, { timeoutMs: 20_000, headers: { 'Idempotency-Key': key } })
}

/** Where the browser goes once a provider says the payment is done (or may be). */
export function redirectPath(orderNo: string): string {
  return `/payRedirect?order_no=${encodeURIComponent(orderNo)}`
}

export function resultPath(orderNo: string): string {
  return `/PaymentSuccessful?order_no=${encodeURIComponent(orderNo)}`
}

interface Bridge {
  invoke: (name: string, params: unknown, cb: (res: { err_msg?: string }) => void) => void
}

function bridge(): Bridge | undefined {
  return (window as unknown as { WeixinJSBridge?: Bridge }).WeixinJSBridge
}

/**
 * WeChat's bridge, or in the demo the payment simulator's stand-in (it only defines itself where WeChat's own
 * bridge is missing; a production server without the simulator answers 404 and the payment is refused).
 */
async function loadBridge(): Promise<Bridge> {
  const existing = bridge()
  if (existing) return existing
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), 8000)
    const onReady = () => {
      clearTimeout(timer)
      resolve()
    }
    document.addEventListener('WeixinJSBridgeReady', onReady, { once: true })
    if (!document.querySelector('script[data-wechat-bridge]')) {
      const script = document.createElement('script')
      script.src = '/__sim/wechatpay/bridge.js'
      script.dataset.wechatBridge = '1'
      script.onerror = () => {
        clearTimeout(timer)
        reject(new Error('no bridge'))
      }
      script.onload = () => {
        if (bridge()) onReady()
      }
      document.head.appendChild(script)
    }
  })
  const loaded = bridge()
  if (!loaded) throw new Error('no bridge')
  return loaded
}

/** 'ok' | 'cancel' | 'fail' from getBrandWCPayRequest. */
export async function payWithBridge(params: JsapiParams): Promise<'ok' | 'cancel' | 'fail'> {
  let b: Bridge
  try {
    b = await loadBridge()
  } catch {
    return 'fail'
  }
  return new Promise((resolve) => {
    b.invoke('getBrandWCPayRequest', params, (res) => {
      const msg = res?.err_msg ?? ''
      resolve(msg.endsWith(':ok') ? 'ok' : msg.endsWith(':cancel') ? 'cancel' : 'fail')
    })
  })
}

/** The order list of a kind: /order courses (and bundles, favourites), /order2 VIP, /order3 amounts. */
export function orderListPath(kind: OrderKind): string {
  if (kind === 'vip') return '/order2'
  if (kind === 'amount') return '/order3'
  return '/order'
}

export function orderDetailPath(order: { kind: OrderKind; order_no: string }): string {
  return `${orderListPath(order.kind)}/${encodeURIComponent(order.order_no)}`
}

/** A course exchanged for its points price: no money price at all (server: orders with pay_method points, original 0). */
export function isPointsExchange(o: Pick<Order, 'original_fen' | 'pay_method'>): boolean {
  return o.pay_method === 'points' && o.original_fen === 0
}

/** What an order cost as the member sees it: money, or for a course exchanged for points, the points. */
export function priceText(o: Pick<Order, 'amount_fen' | 'original_fen' | 'points_used' | 'pay_method'>): string {
  return isPointsExchange(o) ? `${o.points_used} 积分` : yuan(o.amount_fen)
}
