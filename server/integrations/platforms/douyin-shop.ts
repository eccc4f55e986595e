import type { OrderRef, PlatformAdapter, PlatformOrder } from './platform.ts'
import { doudianSign, doudianTimestamp, sortedJson } from './douyin-sign.ts'
import { allPages, clearPhone, tokenCache, type PlatformFetch } from './http.ts'

// Douyin shop (抖店, op.jinritemai.com) orders, for a self-use app (自用型应用):
//   /token/create   method token.create, grant_type=authorization_self, shop_id → access_token
//   /order/orderDetail  method order.orderDetail, param_json {shop_order_id} → data.shop_order_detail
//   /order/searchList   method order.searchList, param_json {update_time_start, update_time_end, page, size}
// Every call carries app_key, method, param_json, timestamp, v=2, sign, sign_method=hmac-sha256 (douyin-sign.ts);
// answers are { code: 10000, msg, data } on success.
//
// Not confirmed from the official pages (op.jinritemai.com was not readable with our search tool; taken from public
// SDKs and write-ups): the field names below, the order_status values (1 unpaid, 2 paid/备货中, 3 shipped, 4 cancelled,
// 5 completed, 101 partly shipped, 105 paid), and `after_sale_info.refund_status` > 0 meaning a refund.
// The buyer's phone comes encrypted (`encrypt_post_tel`) and is decrypted with
//   /order/batchDecrypt  method order.batchDecrypt, param_json {cipher_infos: [{auth_id: order id, cipher_text}]}
//   (at most 50) → data.decrypt_infos[{auth_id, cipher_text, decrypt_text, err_no, is_virtual_tel}]
// (op.jinritemai.com/docs/api-docs/15/982 as quoted by public SDKs: it needs the sensitive-data permission package).
// A virtual number (is_virtual_tel: "host-extension") or a failed decrypt is no phone: the phone rule is then skipped
// for that order and it stays out of the NotExchange list. Not confirmed: err_no 0 as the per-item success value. Doudian's own message push is not used: the sync job reads changes.

export interface DouyinShopSettings {
  baseUrl: string
  appKey: string
  appSecret: string
  shopId: string
}

interface DoudianSkuOrder {
  order_id: string
  sku_id: string | number
  out_sku_id?: string
  product_name: string
  /** What the buyer paid for this SKU order, in fen (order.orderDetail's sku_order_list[].pay_amount). */
  pay_amount?: number
  order_status?: number
  after_sale_info?: { after_sale_status?: number; refund_status?: number }
}

export interface DoudianShopOrder {
  order_id: string
  shop_id: string | number
  order_status: number
  pay_time?: number
  post_tel?: string
  encrypt_post_tel?: string
  sku_order_list: DoudianSkuOrder[]
}

const PAID = new Set([2, 3, 5, 101, 105])

/** A Doudian order as the exchange rules read it. */
function toPlatformOrder(o: DoudianShopOrder, shopId: string, phones: Map<string, string>): PlatformOrder {
  return {
    platform: 'douyin_shop',
    orderId: String(o.order_id),
    ours: String(o.shop_id) === shopId,
    state: o.order_status === 4 ? 'cancelled' : PAID.has(o.order_status) ? 'paid' : 'unpaid',
    buyerPhone: clearPhone(o.post_tel ?? phones.get(o.encrypt_post_tel ?? '')),
    paidAt: o.pay_time ? new Date(o.pay_time * 1000) : null,
    lines: o.sku_order_list.map((l) => ({
      lineId: String(l.order_id),
      // The merchant's own SKU code when set (what operators know), else Doudian's sku id.
      skuId: l.out_sku_id || String(l.sku_id),
      productName: l.product_name,
      amountFen: l.pay_amount ?? null,
      state: (l.after_sale_info?.refund_status ?? 0) > 0 || l.order_status === 4 ? 'refunded' : 'ok',
    })),
  }
}

export function createDouyinShopAdapter(s: DouyinShopSettings, fetch: PlatformFetch, now: () => Date): PlatformAdapter {
  async function call<D>(method: string, params: Record<string, unknown>, accessToken?: string) {
    const signed = {
      app_key: s.appKey,
      method,
      param_json: sortedJson(params),
      timestamp: doudianTimestamp(now()),
      v: '2' as const,
    }
    const url = new URL(`${s.baseUrl}/${method.replace('.', '/')}`)
    for (const [k, v] of Object.entries(signed)) url.searchParams.set(k, v)
    url.searchParams.set('sign', doudianSign(s.appSecret, signed))
    url.searchParams.set('sign_method', 'hmac-sha256')
    if (accessToken) url.searchParams.set('access_token', accessToken)
    const res = await fetch(url.toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: signed.param_json,
    })
    if (!res.ok) throw new Error(`Doudian ${method} answered HTTP ${res.status}`)
    return (await res.json()) as { code: number; msg?: string; sub_code?: string; data?: D }
  }

  const accessToken = tokenCache(async () => {
    const r = await call<{ access_token: string; expires_in: number }>('token.create', {
      grant_type: 'authorization_self',
      shop_id: s.shopId,
    })
    if (r.code !== 10000 || !r.data) throw new Error(`Doudian token.create failed: ${r.msg}`)
    return { token: r.data.access_token, expiresInSeconds: r.data.expires_in }
  })

  /** The clear phones of these orders' encrypted ones (order.batchDecrypt, 50 at a time), by cipher text. */
  async function decryptPhones(orders: DoudianShopOrder[]) {
    const phones = new Map<string, string>()
    const ciphers = orders.flatMap((o) =>
      o.encrypt_post_tel && !o.post_tel ? [{ auth_id: String(o.order_id), cipher_text: o.encrypt_post_tel }] : [],
    )
    for (let i = 0; i < ciphers.length; i += 50) {
      const r = await call<{ decrypt_infos?: { cipher_text: string; decrypt_text?: string; err_no?: number }[] }>(
        'order.batchDecrypt',
        { cipher_infos: ciphers.slice(i, i + 50) },
        await accessToken(),
      )
      for (const d of r.data?.decrypt_infos ?? [])
        if ((d.err_no ?? 0) === 0 && d.decrypt_text) phones.set(d.cipher_text, d.decrypt_text)
    }
    return phones
  }
  const withPhones = async (orders: DoudianShopOrder[]) => {
    const phones = await decryptPhones(orders)
    return orders.map((o) => toPlatformOrder(o, s.shopId, phones))
  }

  return {
    platform: 'douyin_shop',
    async lookup(ref: OrderRef) {
      if (ref.kind !== 'order') return null
      const r = await call<{ shop_order_detail?: DoudianShopOrder }>(
        'order.orderDetail',
        { shop_order_id: ref.orderId },
        await accessToken(),
      )
      if (r.code !== 10000 || !r.data?.shop_order_detail) return null
      return (await withPhones([r.data.shop_order_detail]))[0]!
    },
    listRecent: (since, until) =>
      allPages(0, async (page) => {
        const r = await call<{ shop_order_list?: DoudianShopOrder[]; total?: number }>(
          'order.searchList',
          {
            update_time_start: Math.floor(since.getTime() / 1000),
            update_time_end: Math.ceil(until.getTime() / 1000),
            page,
            size: 100,
          },
          await accessToken(),
        )
        if (r.code !== 10000) throw new Error(`Doudian order.searchList failed: ${r.msg}`)
        const list = r.data?.shop_order_list ?? []
        return { items: await withPhones(list), next: list.length < 100 ? null : page + 1 }
      }),
  }
}
