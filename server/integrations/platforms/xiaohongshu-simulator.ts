import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { createShopOrderStore, shopSimulatorPage, type SimDeps, type SimOrder } from './shop-simulator.ts'
import { simulatorPriceFen } from './simulator-page.ts'
import { sameText, xhsSign } from './shop-sign.ts'
import type { XhsOrder, XiaohongshuSettings } from './xiaohongshu.ts'

// Xiaohongshu Ark as this process plays it without credentials (demo, development, tests): the common_controller
// with oauth.refreshToken, order.getOrderDetail and order.getOrderList (signature and token checked), and a page to
// buy and refund a test order (the sync job finds refunds by their update time). Everything lives in memory.

type XiaohongshuSimulatorSettings = Omit<XiaohongshuSettings, 'baseUrl'> & SimDeps

export function createXiaohongshuSimulator(s: XiaohongshuSimulatorSettings) {
  const [store, tokens] = [createShopOrderStore('xiaohongshu', s.sellerId, s), new Set<string>()]

  const view = (o: SimOrder): XhsOrder => ({
    orderId: o.orderId,
    orderStatus: o.refunded ? 8 : 4,
    orderAfterSalesStatus: o.refunded ? 3 : 1,
    cancelStatus: 0,
    paidTime: o.paidAt,
    sellerId: o.seller,
    receiverPhone: o.phone,
    skuList: o.lines.map((l) => ({
      skuId: l.lineId,
      skuName: l.productName,
      erpcode: l.skuId,
      totalPaidAmount: simulatorPriceFen(l.skuId),
      skuAfterSaleStatus: o.refunded ? 3 : 1,
    })),
  })
  const fail = (code: number, msg: string) => ({ success: false, error_code: code, error_msg: msg, data: null })

  async function plugin(app: FastifyInstance) {
    shopSimulatorPage(app, store, {})
    app.post<{ Body: Record<string, string | number | undefined> }>(
      '/ark/open_api/v3/common_controller',
      async (req) => {
        const b = req.body ?? {}
        const signed = {
          method: String(b.method ?? ''),
          appId: String(b.appId ?? ''),
          timestamp: String(b.timestamp ?? ''),
          version: String(b.version ?? ''),
        }
        if (signed.appId !== s.appId || !sameText(String(b.sign ?? ''), xhsSign(s.appSecret, signed)))
          return fail(-1001, '签名校验失败')
        if (signed.method === 'oauth.refreshToken') {
          if (b.refreshToken !== s.refreshToken) return fail(-1002, 'refreshToken无效')
          const token = `xhs.${crypto.randomBytes(12).toString('hex')}`
          tokens.add(token)
          const data = { accessToken: token, accessTokenExpiresAt: s.now().getTime() + 7 * 86_400_000 }
          return { success: true, data: { ...data, refreshToken: s.refreshToken } }
        }
        if (!tokens.has(String(b.accessToken ?? ''))) return fail(-1003, 'accessToken无效')
        if (signed.method === 'order.getOrderDetail') {
          const o = store.get(String(b.orderId))
          return o ? { success: true, data: view(o) } : fail(-1, '订单不存在')
        }
        if (signed.method === 'order.getOrderList') {
          const list = store.changed(Number(b.startTime) * 1000, Number(b.endTime) * 1000 + 999)
          const orderList = list.map((o) => ({ orderId: o.orderId, orderStatus: view(o).orderStatus }))
          return { success: true, data: { total: list.length, pageNo: 1, pageSize: 100, maxPageNo: 1, orderList } }
        }
        return fail(-1004, `未知方法 ${signed.method}`)
      },
    )
  }

  return { plugin, ...store }
}
