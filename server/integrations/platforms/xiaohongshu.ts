import { allPages, clearPhone, tokenCache, type PlatformFetch } from './http.ts'
import type { PlatformAdapter, PlatformOrder } from './platform.ts'
import { xhsSign } from './shop-sign.ts'

// Xiaohongshu Ark (小红书开放平台) orders, every call a signed JSON body POSTed to
// /ark/open_api/v3/common_controller: { appId, timestamp (s), version "2.0", method, sign, accessToken, …params }
// (shop-sign.ts), answered { success, error_code, error_msg, data }:
//   order.getOrderDetail  { orderId }                                   → data (the order and its skuList)
//   order.getOrderList    { startTime, endTime (s), timeType 2 (update), pageNo, pageSize } → data.orderList
//   oauth.refreshToken    { appId, refreshToken }                       → data.accessToken, accessTokenExpiresAt
// Orders reach us by the periodic sync (order.getOrderList): Ark's message push was not documented anywhere we
// could read, so it is not used.
//
// Not confirmed from the official pages (open.xiaohongshu.com was not readable with our search tool; names from
// public SDKs): orderStatus values (1 unpaid, 8 closed, 9 cancelled, the others paid), orderAfterSalesStatus and
// skuList[].skuAfterSaleStatus (1 none; 2 in progress and 3 done count as a refund), cancelStatus, `erpcode` as the
// merchant's SKU code, the refresh answer's fields. The buyer's phone is encrypted (receiverPhone, decrypted by
// data.batchDecrypt, not called here): only a clear one (the simulator's) is read.

export interface XiaohongshuSettings {
  baseUrl: string
  appId: string
  appSecret: string
  refreshToken: string
  /** Our seller id: an order of another seller is not ours. */
  sellerId: string
}

export interface XhsOrder {
  orderId: string
  orderStatus: number
  orderAfterSalesStatus?: number
  cancelStatus?: number
  paidTime?: number
  sellerId?: string
  receiverPhone?: string
  /** totalPaidAmount: what the buyer paid for the line, in fen (not confirmed: the field's name in getOrderDetail). */
  skuList: { skuId: string; skuName: string; erpcode?: string; skuAfterSaleStatus?: number; totalPaidAmount?: number }[]
}

const REFUNDING = new Set([2, 3])

function toPlatformOrder(o: XhsOrder, sellerId: string): PlatformOrder {
  const whole = REFUNDING.has(o.orderAfterSalesStatus ?? 1)
  return {
    platform: 'xiaohongshu',
    orderId: o.orderId,
    ours: o.sellerId === undefined || o.sellerId === sellerId,
    state:
      o.orderStatus === 8 || o.orderStatus === 9 || o.cancelStatus === 1
        ? 'cancelled'
        : o.orderStatus === 1
          ? 'unpaid'
          : 'paid',
    buyerPhone: clearPhone(o.receiverPhone),
    paidAt: o.paidTime ? new Date(o.paidTime) : null,
    lines: o.skuList.map((l) => ({
      lineId: l.skuId,
      skuId: l.erpcode || l.skuId,
      productName: l.skuName,
      amountFen: l.totalPaidAmount ?? null,
      state: whole || REFUNDING.has(l.skuAfterSaleStatus ?? 1) ? 'refunded' : 'ok',
    })),
  }
}

export function createXiaohongshuAdapter(
  s: XiaohongshuSettings,
  fetch: PlatformFetch,
  now: () => Date,
): PlatformAdapter {
  let refreshToken = s.refreshToken

  async function call<D>(method: string, params: Record<string, unknown>, accessToken?: string) {
    const signed = { method, appId: s.appId, timestamp: String(Math.floor(now().getTime() / 1000)), version: '2.0' }
    const res = await fetch(`${s.baseUrl}/ark/open_api/v3/common_controller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...signed, sign: xhsSign(s.appSecret, signed), accessToken, ...params }),
    })
    if (!res.ok) throw new Error(`Xiaohongshu ${method} answered HTTP ${res.status}`)
    return (await res.json()) as { success: boolean; error_code?: number; error_msg?: string; data?: D }
  }

  const accessToken = tokenCache(async () => {
    const r = await call<{ accessToken: string; accessTokenExpiresAt: number; refreshToken?: string }>(
      'oauth.refreshToken',
      { appId: s.appId, refreshToken },
    )
    if (!r.success || !r.data) throw new Error(`Xiaohongshu oauth.refreshToken failed: ${r.error_msg}`)
    if (r.data.refreshToken) refreshToken = r.data.refreshToken
    return { token: r.data.accessToken, expiresInSeconds: (r.data.accessTokenExpiresAt - now().getTime()) / 1000 }
  })

  const detail = async (orderId: string) => {
    const r = await call<XhsOrder>('order.getOrderDetail', { orderId }, await accessToken())
    return r.success && r.data ? toPlatformOrder(r.data, s.sellerId) : null
  }

  return {
    platform: 'xiaohongshu',
    lookup: (ref) => (ref.kind === 'order' ? detail(ref.orderId) : Promise.resolve(null)),
    async listRecent(since, until) {
      const ids = await allPages(1, async (pageNo) => {
        const r = await call<{ orderList?: { orderId: string }[]; maxPageNo?: number }>(
          'order.getOrderList',
          {
            startTime: Math.floor(since.getTime() / 1000),
            endTime: Math.ceil(until.getTime() / 1000),
            timeType: 2,
            pageNo,
            pageSize: 100,
          },
          await accessToken(),
        )
        if (!r.success) throw new Error(`Xiaohongshu order.getOrderList failed: ${r.error_msg}`)
        return {
          items: (r.data?.orderList ?? []).map((o) => o.orderId),
          next: pageNo < (r.data?.maxPageNo ?? 1) ? pageNo + 1 : null,
        }
      })
      const orders = await Promise.all(ids.map(detail))
      return orders.filter((o) => o !== null)
    },
  }
}
