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

/**
 * Each shop simulator's look: its name and colour on the page, the prefix of its products' SKUs, its order numbers
 * (Kuaishou oid: 16 digits, one item per order; Xiaohongshu: "P" + 18 digits; WeChat Shop: 19 digits).
 */
const LOOKS = {
  kuaishou: {
    brand: '快手小店',
    color: '#ff4906',
    skuPrefix: 'KS',
    newOrderId: () => `24${simDigits(14)}`,
    singleLine: true,
  },
  xiaohongshu: {
    brand: '小红书',
    color: '#ff2442',
    skuPrefix: 'XHS',
    newOrderId: () => `P${simDigits(18)}`,
    singleLine: false,
  },
  wechat_shop: {
    brand: '微信小店',
    color: '#07c160',
    skuPrefix: 'WXS',
    newOrderId: () => `37${simDigits(17)}`,
    singleLine: false,
  },
}

/** What every shop simulator is given: outbound HTTP (its pushes) and the clock. */
export interface SimDeps {
  fetch: PlatformFetch
  now: () => Date
}

/** The in-memory orders of one shop simulator, sold by `seller`. */
export function createShopOrderStore(shop: keyof typeof LOOKS, seller: string, deps: SimDeps) {
  const s = { ...LOOKS[shop], seller, ...deps }
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

/**
 * The page of a shop simulator: buy a product with a phone (then `on.paid`: the platform's order push, where it has
 * one), see the order number, refund (then `on.refunded`).
 */
export function shopSimulatorPage(
  app: FastifyInstance,
  store: ShopOrderStore,
  on: { paid?: (o: SimOrder) => Promise<unknown>; refunded?: (o: SimOrder) => Promise<unknown> },
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
      void on.paid?.(o)
      return `已下单：订单号 ${o.orderId}`
    },
    async refund(id) {
      const o = store.refund(id)
      if (o) await on.refunded?.(o)
    },
  })
}
