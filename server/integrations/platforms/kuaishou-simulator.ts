import crypto from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { KuaishouOrder, KuaishouSettings } from './kuaishou.ts'
import { createShopOrderStore, shopSimulatorPage, type SimDeps, type SimOrder } from './shop-simulator.ts'
import { simulatorPriceFen } from './simulator-page.ts'
import { kuaishouEncryptPush, kuaishouSign, type KuaishouSignMethod } from './shop-sign.ts'

// The Kuaishou shop as this process plays it without credentials (demo, development, tests): the refresh-token
// call, open.order.detail and open.order.cursor.list (signature and token checked), the encrypted push after a
// refund, and a page to buy and refund a test order. Everything lives in memory.

interface KuaishouSimulatorSettings extends Omit<KuaishouSettings, 'baseUrl'>, SimDeps {
  /** Where pushes go (our POST /api/…/notify). */
  notifyUrl: () => string
}

export function createKuaishouSimulator(s: KuaishouSimulatorSettings) {
  const store = createShopOrderStore('kuaishou', s.sellerId, s)
  const tokens = new Set<string>()
  /** Kuaishou's own numeric SKU id of each of our SKU codes. */
  const skuIds = (code: string) => 7000 + store.products.findIndex((p) => p.skuId === code)

  const view = (o: SimOrder): KuaishouOrder => ({
    orderBaseInfo: {
      oid: o.orderId,
      status: o.refunded ? 80 : 30,
      payTime: o.paidAt,
      sellerId: o.seller,
      totalFee: simulatorPriceFen(o.lines[0]!.skuId),
    },
    orderItemInfo: {
      itemTitle: o.lines[0]!.productName,
      skuId: skuIds(o.lines[0]!.skuId),
      relSkuId: o.lines[0]!.skuId,
    },
    orderAddress: { mobile: o.phone },
    orderRefundList: o.refunded ? [{ refundId: `${o.orderId}1`, refundStatus: 60 }] : [],
  })

  /** The push Kuaishou sends when an order changes, encrypted with the app's message key. */
  function push(o: SimOrder, event = 'kwaishop_order_statusChange', eventId: string = crypto.randomUUID()) {
    const body = JSON.stringify({
      eventId,
      bizId: o.orderId,
      userId: s.sellerId,
      appKey: s.appKey,
      event,
      info: JSON.stringify({ oid: o.orderId, sellerId: s.sellerId, status: o.refunded ? 80 : 30 }),
      createTime: s.now().getTime(),
    })
    return store.send(s.notifyUrl(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=utf-8' },
      body: kuaishouEncryptPush(s.messageKey, body),
    })
  }

  async function plugin(app: FastifyInstance) {
    shopSimulatorPage(app, store, {
      paid: (o) => push(o, 'kwaishop_order_paySuccess'),
      refunded: (o) => push(o),
    })
    app.get<{ Querystring: Record<string, string | undefined> }>('/oauth2/refresh_token', async (req) => {
      const q = req.query
      if (q.app_id !== s.appKey || q.app_secret !== s.appSecret || q.refresh_token !== s.refreshToken)
        return { result: 100200100, error_msg: 'refresh_token invalid' }
      const token = `ks.${crypto.randomBytes(12).toString('hex')}`
      tokens.add(token)
      return { result: 1, access_token: token, expires_in: 172800, refresh_token: s.refreshToken }
    })
    const api = async (req: FastifyRequest<{ Querystring: Record<string, string | undefined> }>) => {
      const q = req.query
      const method = q.method ?? ''
      const signMethod = (q.signMethod ?? 'MD5') as KuaishouSignMethod
      if (!req.url.split('?')[0]!.endsWith(`/${method.replaceAll('.', '/')}`))
        return { result: 26, error_msg: `method ${method} 与路径不符` }
      if (q.appkey !== s.appKey || q.sign !== kuaishouSign(s.signSecret, q, signMethod))
        return { result: 28, error_msg: '签名校验失败' }
      if (!tokens.has(q.access_token ?? '')) return { result: 24, error_msg: 'access_token无效' }
      const param = JSON.parse(q.param ?? '{}') as Record<string, unknown>
      if (method === 'open.order.detail') {
        const o = store.get(String(param.oid))
        return o ? { result: 1, data: view(o) } : { result: 802000, error_msg: '订单不存在' }
      }
      const list = store.changed(Number(param.beginTime), Number(param.endTime)).map(view)
      return { result: 1, data: { cursor: 'nomore', orderList: list } }
    }
    app.get('/open/order/detail', api)
    app.get('/open/order/cursor/list', api)
  }

  return { plugin, ...store, push }
}
