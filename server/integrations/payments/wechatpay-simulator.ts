import { createNotifier, DEFAULT_RETRY_DELAYS_MS } from './notifier.ts'
import { billRoutes } from './wechatpay-simulator/bills-api.ts'
import { certificateRoutes, rotatePlatformCertificate } from './wechatpay-simulator/certificates.ts'
import type { SimContext, WechatPaySimulator, WechatPaySimulatorOptions } from './wechatpay-simulator/context.ts'
import { paymentNotification, refundNotification } from './wechatpay-simulator/notifications.ts'
import { pageRoutes } from './wechatpay-simulator/pages.ts'
import { completeRefund, refundRoutes } from './wechatpay-simulator/refunds-api.ts'
import { payTrade, transactionRoutes } from './wechatpay-simulator/transactions-api.ts'

export type { SimTrade, WechatPaySimulator, WechatPaySimulatorOptions } from './wechatpay-simulator/context.ts'

/**
 * A local stand-in for WeChat Pay API v3 (api.mch.weixin.qq.com) and its payment pages, for development, the
 * demo and the tests. It checks merchant signatures, answers in WeChat Pay's format with signed headers, holds
 * each payment until a person presses "确认支付" on its cashier page (or a test calls `pay`), then posts the
 * encrypted, signed notification to notify_url, retrying like WeChat Pay. State lives in memory. Its parts are in
 * wechatpay-simulator/: signing, notifications, the transactions and refunds APIs, certificates, and the pages.
 */
export function createWechatPaySimulator(options: WechatPaySimulatorOptions): WechatPaySimulator {
  const ctx: SimContext = {
    options,
    trades: new Map(),
    byPrepay: new Map(),
    byCode: new Map(),
    refunds: new Map(),
    seenNonces: new Map(),
    timers: new Set(),
    requests: [],
    faults: { refundError: null, loseRefundAnswers: false, silentRefunds: false, refundOutcome: 'SUCCESS' },
    notifier: createNotifier({
      fetch: options.fetch ?? globalThis.fetch,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    }),
    platform: { current: options.platform, listed: [options.platform] },
    bills: new Map(),
  }

  function close() {
    ctx.notifier.close()
    for (const t of ctx.timers) clearTimeout(t)
    ctx.timers.clear()
  }

  return {
    trades: ctx.trades,
    refunds: ctx.refunds,
    notifier: ctx.notifier,
    requests: ctx.requests,
    faults: ctx.faults,
    platformSerial: () => ctx.platform.current.serial,
    rotatePlatformCertificate: () => rotatePlatformCertificate(ctx),
    pay: (outTradeNo) => payTrade(ctx, outTradeNo),
    paymentNotification: (trade, overrides) => paymentNotification(ctx, trade, overrides),
    refundNotification: (refund, overrides) => refundNotification(ctx, refund, overrides),
    completeRefund: (outRefundNo) => completeRefund(ctx, outRefundNo),
    async plugin(app) {
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body))
      app.addHook('onClose', async () => close())
      app.addHook('onRequest', async (request) => {
        const at = request.url.indexOf('/v3/')
        if (at < 0) return
        ctx.requests.push({ method: request.method, path: request.url.slice(at) })
        if (ctx.requests.length > 1000) ctx.requests.shift()
      })
      certificateRoutes(app, ctx)
      transactionRoutes(app, ctx)
      refundRoutes(app, ctx)
      billRoutes(app, ctx)
      pageRoutes(app, ctx)
    },
    close,
  }
}
