import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { createShopOrderStore, shopSimulatorPage, type SimDeps, type SimOrder } from './shop-simulator.ts'
import { simulatorPriceFen } from './simulator-page.ts'
import { wechatPushSignature } from './shop-sign.ts'
import type { WechatShopOrder, WechatShopSettings } from './wechat-shop.ts'

// WeChat Shop as this process plays it without credentials (demo, development, tests): stable_token, order/get and
// order/list/get (token checked), the signed aftersale push after a refund, and a page to buy and refund a test
// order. Everything lives in memory.

interface WechatShopSimulatorSettings extends Omit<WechatShopSettings, 'baseUrl'>, SimDeps {
  /** Where pushes go (our POST /api/…/notify). */
  notifyUrl: () => string
}

export function createWechatShopSimulator(s: WechatShopSimulatorSettings) {
  const store = createShopOrderStore('wechat_shop', s.appId, s)
  const tokens = new Set<string>()

  const view = (o: SimOrder): WechatShopOrder => ({
    order_id: o.orderId,
    status: o.refunded ? 200 : 20,
    order_detail: {
      product_infos: o.lines.map((l, i) => ({
        product_id: `10000${i}`,
        sku_id: `${3000 + i}`,
        sku_code: l.skuId,
        title: l.productName,
        product_unique_id: l.lineId,
        real_price: simulatorPriceFen(l.skuId),
        on_aftersale_sku_cnt: 0,
        finish_aftersale_sku_cnt: o.refunded ? 1 : 0,
      })),
      pay_info: { pay_time: Math.floor(o.paidAt / 1000) },
      delivery_info: { address_info: { tel_number: o.phone } },
    },
  })

  /** The signed push WeChat sends when an order is paid or an after-sale (a refund) of it changes. */
  function push(
    o: SimOrder,
    createTime = Math.floor(s.now().getTime() / 1000),
    token = s.pushToken,
    event: 'channels_ec_aftersale_update' | 'channels_ec_order_pay' = 'channels_ec_aftersale_update',
  ) {
    const timestamp = String(createTime)
    const nonce = crypto.randomBytes(6).toString('hex')
    const query = new URLSearchParams({ signature: wechatPushSignature(token, timestamp, nonce), timestamp, nonce })
    const body = JSON.stringify({
      ToUserName: 'gh_simulated',
      FromUserName: 'OPENID',
      CreateTime: createTime,
      MsgType: 'event',
      Event: event,
      ...(event === 'channels_ec_order_pay'
        ? { order_info: { order_id: o.orderId, pay_time: Math.floor(o.paidAt / 1000) } }
        : {
            finder_shop_aftersale_status_update: {
              status: 'MERCHANT_REFUND_SUCCESS',
              after_sale_order_id: `${o.orderId}9`,
              order_id: o.orderId,
            },
          }),
    })
    return store.send(`${s.notifyUrl()}?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
  }

  async function plugin(app: FastifyInstance) {
    shopSimulatorPage(app, store, {
      paid: (o) => push(o, undefined, undefined, 'channels_ec_order_pay'),
      refunded: (o) => push(o),
    })
    app.post<{ Body: { appid?: string; secret?: string } }>('/cgi-bin/stable_token', async (req) => {
      if (req.body?.appid !== s.appId || req.body?.secret !== s.appSecret)
        return { errcode: 40013, errmsg: 'invalid appid or secret' }
      const token = `wx.${crypto.randomBytes(12).toString('hex')}`
      tokens.add(token)
      return { access_token: token, expires_in: 7200 }
    })
    app.post<{ Querystring: { access_token?: string }; Body: Record<string, unknown> }>(
      '/channels/ec/order/*',
      async (req) => {
        if (!tokens.has(req.query.access_token ?? '')) return { errcode: 40001, errmsg: 'invalid access_token' }
        const path = req.url.split('?')[0]!
        if (path.endsWith('/order/get')) {
          const o = store.get(String(req.body?.order_id))
          // Another shop's order is not found with our token.
          return o && o.seller === s.appId
            ? { errcode: 0, errmsg: 'ok', order: view(o) }
            : { errcode: 10020101, errmsg: '订单不存在' }
        }
        const range = (req.body?.update_time_range ?? {}) as { start_time?: number; end_time?: number }
        const list = store
          .changed(Number(range.start_time) * 1000, Number(range.end_time) * 1000 + 999)
          .filter((o) => o.seller === s.appId)
        return { errcode: 0, errmsg: 'ok', order_id_list: list.map((o) => o.orderId), next_key: '', has_more: false }
      },
    )
  }

  return { plugin, ...store, push }
}
