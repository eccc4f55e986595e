import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { PlatformFetch } from './http.ts'
import { renderSimulatorPage, simulatorPageRoutes, simulatorProducts, typedPhone } from './simulator-page.ts'

// What the Kuaishou, Xiaohongshu and WeChat Shop simulators share: the orders people buy on their page (in memory),
// refunds, the pushes they send, and the page itself. Each platform's own file speaks its wire format over these.

export const simDigits = (n: number) => Array.from(crypto.randomBytes(n), (b) => String(b % 10)).join('')

export interface SimOrder {
  orderId: string
  seller: string
  phone: string
  paidAt: number
  updated: number
  refunded: boolean
  lines: { lineId: string; skuId: string; productName: string }[]
}

export interface ShopSimulatorSettings {
  /** The platform's name and colour on the page, the prefix of its products' SKUs. */
  brand: string
  color: string
  skuPrefix: string
  seller: string
  newOrderId: () => string
  /** One line per order (Kuaishou: an order is one item). */
  singleLine?: boolean
  now: () => Date
  fetch: PlatformFetch
}

export function createShopOrderStore(s: ShopSimulatorSettings) {
  const orders = new Map<string, SimOrder>()
  const inFlight = new Set<Promise<unknown>>()
  const products = simulatorProducts(s.skuPrefix, '')

  const store = {
    brand: s.brand,
    color: s.color,
    products,
    /** A paid order bought with `phone`; `foreign` sells it from another shop. */
    makeOrder(o: { phone: string; lines: { skuId: string; productName: string }[]; foreign?: boolean }) {
      const orderId = s.newOrderId()
      const now = s.now().getTime()
      const lines = (s.singleLine ? o.lines.slice(0, 1) : o.lines).map((l, i) => ({
        ...l,
        lineId: s.singleLine ? orderId : `${orderId}_${String(i + 1).padStart(3, '0')}`,
      }))
      const order = {
        orderId,
        seller: o.foreign ? `9${simDigits(7)}` : s.seller,
        phone: o.phone,
        paidAt: now,
        updated: now,
        refunded: false,
        lines,
      }
      orders.set(orderId, order)
      return order
    },
    get: (orderId: string) => orders.get(orderId),
    /** Orders changed between two instants (ms), for the platform's list API. */
    changed: (from: number, to: number) => [...orders.values()].filter((o) => o.updated >= from && o.updated <= to),
    /** Refunds the whole order; answers it, or undefined when unknown. */
    refund(orderId: string) {
      const o = orders.get(orderId)
      if (!o) return undefined
      o.refunded = true
      o.updated = s.now().getTime()
      return o
    },
    /** Sends a push and keeps track of it until it is answered. */
    send(url: string, init: RequestInit) {
      const p = s.fetch(url, init).catch(() => undefined)
      inFlight.add(p)
      void p.finally(() => inFlight.delete(p))
      return p
    },
    idle: async () => {
      while (inFlight.size) await Promise.all([...inFlight])
    },
  }
  return store
}

export type ShopOrderStore = ReturnType<typeof createShopOrderStore>

/** The page of a shop simulator: buy a product with a phone, see the order number, refund (then `onRefund`). */
export function shopSimulatorPage(
  app: FastifyInstance,
  store: ShopOrderStore,
  onRefund: (o: SimOrder) => Promise<unknown> | void,
) {
  app.addHook('onRoute', (route) => {
    // The platform's wire format, not our API: kept out of the API docs like the other simulators.
    route.schema = { ...route.schema, hide: true }
  })
  simulatorPageRoutes(app, {
    products: store.products,
    page: (notice) =>
      renderSimulatorPage({
        brand: store.brand,
        color: store.color,
        products: store.products,
        sections: [
          {
            title: '我的订单',
            items: store
              .changed(0, Number.MAX_SAFE_INTEGER)
              .reverse()
              .map((o) => ({
                number: o.orderId,
                title: o.lines.map((l) => l.productName).join('、'),
                detail: `${o.phone} · ${o.refunded ? '已退款' : '已支付'}`,
                refundId: o.refunded ? null : o.orderId,
              })),
          },
        ],
        notice,
      }),
    buy(product, form) {
      const phone = typedPhone(form.phone)
      if (!phone) return '请填写 11 位手机号'
      const o = store.makeOrder({ phone, lines: [{ skuId: product.skuId, productName: product.title }] })
      return `已下单：订单号 ${o.orderId}`
    },
    async refund(id) {
      const o = store.refund(id)
      if (o) await onRefund(o)
    },
  })
}
