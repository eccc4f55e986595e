import { allPages, clearPhone, tokenCache, type PlatformFetch } from './http.ts'
import type { PlatformAdapter, PlatformOrder, PushCheck } from './platform.ts'
import { kuaishouDecryptPush, kuaishouSign, type KuaishouSignMethod } from './shop-sign.ts'

// Kuaishou shop (快手小店, open.kwaixiaodian.com) orders:
//   GET /open/order/detail        method open.order.detail, param {"oid"}            → data (one order, one item)
//   GET /open/order/cursor/list   method open.order.cursor.list, param {queryType 2 (update time), beginTime,
//                                 endTime (ms), cursor, pageSize}                     → data.orderList, data.cursor
//   GET /oauth2/refresh_token     app_id, app_secret, grant_type=refresh_token, refresh_token → access_token
// Every API call carries appkey, method, version=1, param (JSON), access_token, timestamp (ms), signMethod and sign
// (shop-sign.ts, "API调用说明" §3–4); answers are { result: 1, data } on success. Pushes ("消息服务说明") are the JSON
// { eventId, bizId, appKey, event, info, test } encrypted with the app's AES message key, answered {"result":1};
// a push only names the order, which is read back with open.order.detail (a push that does not decrypt is refused).
//
// Not confirmed from the official pages (the API reference pages were not readable with our search tool; field
// names from public SDKs): orderBaseInfo.status values (10 unpaid, 30 paid, 40 shipped, 50 received, 70 done,
// 80 closed), orderRefundList[].refundStatus (any entry but a closed one, 20, counts as a refund), `relSkuId` as the
// merchant's SKU code, the cursor list's parameter names and its "nomore" end cursor, and the refresh answer's
// fields. The buyer's phone comes encrypted (orderAddress.encryptedMobile, decrypted by open.order.decrypt.batch,
// not called here): only a clear `mobile` (the simulator's) is read, so with the real shop the phone rule is skipped.

export interface KuaishouSettings {
  baseUrl: string
  appKey: string
  appSecret: string
  signSecret: string
  /** The AES key of the message push (应用详情 → 消息加密密钥), Base64. */
  messageKey: string
  /** The shop's refresh token (from the seller's authorisation); access tokens are refreshed with it. */
  refreshToken: string
  /** Our seller id: an order of another seller is not ours. */
  sellerId: string
}

export interface KuaishouOrder {
  /** totalFee: what the buyer paid, in fen, one item per order (not confirmed: that it includes no freight here). */
  orderBaseInfo: {
    oid: string | number
    status: number
    payTime?: number
    sellerId?: string | number
    totalFee?: number
  }
  orderItemInfo: { itemTitle: string; skuId: string | number; relSkuId?: string }
  orderAddress?: { mobile?: string; encryptedMobile?: string }
  orderRefundList?: { refundId: string | number; refundStatus: number }[]
}

const PAID = new Set([30, 40, 50, 70])
const REFUND_CLOSED = 20

/** A Kuaishou order as the exchange rules read it: one order, one item (its line id is the order id). */
function toPlatformOrder(o: KuaishouOrder, sellerId: string): PlatformOrder {
  const b = o.orderBaseInfo
  const refunded = (o.orderRefundList ?? []).some((r) => r.refundStatus !== REFUND_CLOSED)
  return {
    platform: 'kuaishou',
    orderId: String(b.oid),
    ours: b.sellerId === undefined || String(b.sellerId) === sellerId,
    state: b.status === 80 ? 'cancelled' : PAID.has(b.status) ? 'paid' : 'unpaid',
    buyerPhone: clearPhone(o.orderAddress?.mobile),
    paidAt: b.payTime ? new Date(b.payTime) : null,
    lines: [
      {
        lineId: String(b.oid),
        skuId: o.orderItemInfo.relSkuId || String(o.orderItemInfo.skuId),
        productName: o.orderItemInfo.itemTitle,
        amountFen: b.totalFee ?? null,
        state: refunded ? 'refunded' : 'ok',
      },
    ],
  }
}

export function createKuaishouAdapter(s: KuaishouSettings, fetch: PlatformFetch, now: () => Date): PlatformAdapter {
  let refreshToken = s.refreshToken
  const accessToken = tokenCache(async () => {
    const url = new URL(`${s.baseUrl}/oauth2/refresh_token`)
    url.search = new URLSearchParams({
      app_id: s.appKey,
      app_secret: s.appSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    }).toString()
    const r = (await (await fetch(url.toString())).json()) as {
      result?: number
      access_token?: string
      expires_in?: number
      refresh_token?: string
    }
    if (r.result !== 1 || !r.access_token) throw new Error(`Kuaishou refresh_token failed (${r.result})`)
    if (r.refresh_token) refreshToken = r.refresh_token
    return { token: r.access_token, expiresInSeconds: r.expires_in ?? 3600 }
  })

  async function call<D>(method: string, param: Record<string, unknown>) {
    const signMethod: KuaishouSignMethod = 'HMAC_SHA256'
    const params: Record<string, string> = {
      appkey: s.appKey,
      method,
      version: '1',
      param: JSON.stringify(param),
      access_token: await accessToken(),
      timestamp: String(now().getTime()),
      signMethod,
    }
    params.sign = kuaishouSign(s.signSecret, params, signMethod)
    const res = await fetch(`${s.baseUrl}/${method.replaceAll('.', '/')}?${new URLSearchParams(params)}`)
    if (!res.ok) throw new Error(`Kuaishou ${method} answered HTTP ${res.status}`)
    return (await res.json()) as { result: number; error_msg?: string; data?: D }
  }

  return {
    platform: 'kuaishou',
    async lookup(ref) {
      if (ref.kind !== 'order') return null
      const r = await call<KuaishouOrder>('open.order.detail', { oid: Number(ref.orderId) })
      return r.result === 1 && r.data ? toPlatformOrder(r.data, s.sellerId) : null
    },
    listRecent: (since, until) =>
      allPages('', async (cursor) => {
        const r = await call<{ cursor?: string; orderList?: KuaishouOrder[] }>('open.order.cursor.list', {
          orderViewStatus: 1,
          queryType: 2,
          beginTime: since.getTime(),
          endTime: until.getTime(),
          cursor,
          pageSize: 50,
        })
        if (r.result !== 1) throw new Error(`Kuaishou open.order.cursor.list failed: ${r.error_msg}`)
        const next = r.data?.cursor && r.data.cursor !== 'nomore' ? r.data.cursor : null
        return { items: (r.data?.orderList ?? []).map((o) => toPlatformOrder(o, s.sellerId)), next }
      }),
    checkPush(_headers, rawBody): PushCheck {
      const plain = kuaishouDecryptPush(s.messageKey, rawBody)
      if (plain === null) return { ok: false, reason: 'bad_signature' }
      let msg: {
        eventId?: string
        appKey?: string
        event?: string
        bizId?: string | number
        info?: string
        test?: boolean
      }
      try {
        msg = JSON.parse(plain) as typeof msg
      } catch {
        return { ok: false, reason: 'malformed' }
      }
      const answer = { status: 200, body: { result: 1 } }
      if (msg.test) return { ok: true, msgId: '', events: [], answer }
      if (msg.appKey !== s.appKey || !msg.eventId) return { ok: false, reason: 'bad_signature' }
      let info: { oid?: string | number }
      try {
        info = typeof msg.info === 'string' ? (JSON.parse(msg.info) as typeof info) : {}
      } catch {
        return { ok: false, reason: 'malformed' }
      }
      const oid = info.oid ?? (msg.event?.startsWith('kwaishop_order_') ? msg.bizId : undefined)
      const events = oid
        ? [{ kind: 'changed' as const, orderId: String(oid) }]
        : [{ kind: 'ignored' as const, what: String(msg.event) }]
      return { ok: true, msgId: msg.eventId, events, answer }
    },
  }
}
