import { allPages, clearPhone, tokenCache, type PlatformFetch } from './http.ts'
import type { PlatformAdapter, PlatformOrder, PushCheck } from './platform.ts'
import { sameText, wechatPushSignature } from './shop-sign.ts'

// WeChat Shop (微信小店, developers.weixin.qq.com/doc/store) orders:
//   POST /cgi-bin/stable_token            { grant_type: client_credential, appid, secret } → access_token
//   POST /channels/ec/order/get           ?access_token  { order_id }  → { errcode, errmsg, order }
//   POST /channels/ec/order/list/get      ?access_token  { update_time_range {start_time, end_time}, page_size,
//                                          next_key } → order_id_list, next_key, has_more
// and the order pushes (channels_ec_order_pay / _cancel / …, channels_ec_aftersale_update), JSON in plain-text mode
// with `signature` = sha1(sorted token, timestamp, nonce) in the query string, answered "success". A push only names
// the order (order_info.order_id), which is read back with order/get: the plain-text signature does not cover the
// body, so nothing a push says is believed without the API.
//
// Order status (order/get docs): 10 unpaid, 20 paid, 21 partly shipped, 30 awaiting receipt, 100 done,
// 200 every product after-sold, 250 cancelled. Not confirmed: that product_infos[].on_aftersale_sku_cnt /
// finish_aftersale_sku_cnt > 0 is the way to tell a refunded line (we read it so), `sku_code` as the merchant's SKU
// code, and the aftersale push's field names; the push's safe mode (AES, msg_signature) is not implemented, so the
// push must be configured in plain-text mode. The buyer's phone (delivery_info.address_info.tel_number) is masked
// or virtual for real orders: only a clear one (the simulator's) is read.

export interface WechatShopSettings {
  baseUrl: string
  appId: string
  appSecret: string
  /** The Token configured for the message push (消息推送 → Token). */
  pushToken: string
}

export interface WechatShopOrder {
  order_id: string
  status: number
  order_detail: {
    product_infos: {
      product_id: string
      sku_id: string
      sku_code?: string
      title: string
      product_unique_id?: string
      /** What the buyer paid for this line, in fen (not confirmed: real_price rather than sale_price × count). */
      real_price?: number
      on_aftersale_sku_cnt?: number
      finish_aftersale_sku_cnt?: number
    }[]
    pay_info?: { pay_time?: number }
    delivery_info?: { address_info?: { tel_number?: string } }
  }
}

const PAID = new Set([20, 21, 30, 100])

function toPlatformOrder(o: WechatShopOrder): PlatformOrder {
  return {
    platform: 'wechat_shop',
    orderId: String(o.order_id),
    // The access token is our shop's: order/get answers only our shop's orders.
    ours: true,
    state: o.status === 200 || o.status === 250 ? 'cancelled' : PAID.has(o.status) ? 'paid' : 'unpaid',
    buyerPhone: clearPhone(o.order_detail.delivery_info?.address_info?.tel_number),
    paidAt: o.order_detail.pay_info?.pay_time ? new Date(o.order_detail.pay_info.pay_time * 1000) : null,
    lines: o.order_detail.product_infos.map((p) => ({
      lineId: p.product_unique_id || String(p.sku_id),
      skuId: p.sku_code || String(p.sku_id),
      productName: p.title,
      amountFen: p.real_price ?? null,
      state: (p.on_aftersale_sku_cnt ?? 0) + (p.finish_aftersale_sku_cnt ?? 0) > 0 ? 'refunded' : 'ok',
    })),
  }
}

export function createWechatShopAdapter(s: WechatShopSettings, fetch: PlatformFetch): PlatformAdapter {
  async function post<D>(path: string, body: unknown, token?: string) {
    const res = await fetch(`${s.baseUrl}${path}${token ? `?access_token=${encodeURIComponent(token)}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`WeChat Shop ${path} answered HTTP ${res.status}`)
    return (await res.json()) as D & { errcode?: number; errmsg?: string }
  }
  const accessToken = tokenCache(async () => {
    const r = await post<{ access_token?: string; expires_in?: number }>('/cgi-bin/stable_token', {
      grant_type: 'client_credential',
      appid: s.appId,
      secret: s.appSecret,
    })
    if (!r.access_token) throw new Error(`WeChat stable_token failed (${r.errcode})`)
    return { token: r.access_token, expiresInSeconds: r.expires_in ?? 7200 }
  })
  const detail = async (orderId: string) => {
    const r = await post<{ order?: WechatShopOrder }>(
      '/channels/ec/order/get',
      { order_id: orderId },
      await accessToken(),
    )
    return (r.errcode ?? 0) === 0 && r.order ? toPlatformOrder(r.order) : null
  }

  return {
    platform: 'wechat_shop',
    lookup: (ref) => (ref.kind === 'order' ? detail(ref.orderId) : Promise.resolve(null)),
    async listRecent(since, until) {
      const ids = await allPages('', async (nextKey) => {
        const r = await post<{ order_id_list?: string[]; next_key?: string; has_more?: boolean }>(
          '/channels/ec/order/list/get',
          {
            update_time_range: {
              start_time: Math.floor(since.getTime() / 1000),
              end_time: Math.ceil(until.getTime() / 1000),
            },
            page_size: 100,
            next_key: nextKey,
          },
          await accessToken(),
        )
        if ((r.errcode ?? 0) !== 0) throw new Error(`WeChat Shop order/list/get failed: ${r.errmsg}`)
        return { items: r.order_id_list ?? [], next: r.has_more && r.next_key ? r.next_key : null }
      })
      const orders = await Promise.all(ids.map(detail))
      return orders.filter((o) => o !== null)
    },
    checkPush(_headers, rawBody, query = {}): PushCheck {
      const { signature = '', timestamp = '', nonce = '' } = query
      if (!timestamp || !nonce || !sameText(wechatPushSignature(s.pushToken, timestamp, nonce), signature))
        return { ok: false, reason: 'bad_signature' }
      let msg: {
        Event?: string
        CreateTime?: number
        order_info?: { order_id?: string | number }
        finder_shop_aftersale_status_update?: { order_id?: string | number }
      }
      try {
        msg = JSON.parse(rawBody) as typeof msg
      } catch {
        return { ok: false, reason: 'malformed' }
      }
      const orderId = msg.order_info?.order_id ?? msg.finder_shop_aftersale_status_update?.order_id
      const answer = { status: 200, body: 'success' }
      if (!orderId) return { ok: true, msgId: '', events: [{ kind: 'ignored', what: String(msg.Event) }], answer }
      const msgId = `${msg.Event}:${String(orderId)}:${msg.CreateTime}`
      return { ok: true, msgId, events: [{ kind: 'changed', orderId: String(orderId) }], answer }
    },
  }
}
