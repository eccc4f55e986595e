import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { fenToYuan, yuanToFen } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import { parseAlipayTime, responseKey, signContent, verifyRequestParams, type Params } from './alipay-crypto.ts'
import { AlipayBrand, renderCashier, renderResult } from './cashier-page.ts'
import { createNotifier, DEFAULT_RETRY_DELAYS_MS, type Delivery, type Notifier } from './notifier.ts'
import { rsaSign } from './wechatpay-crypto.ts'
import { createAlipayBills } from './alipay-simulator/bills.ts'
import { BILL_METHOD, GATEWAY_METHODS, gatewayMethod, settleRefund } from './alipay-simulator/gateway-api.ts'
import { digits, huabeiOf, payWayOf, type AlipayFaults, type AlipaySimTrade } from './alipay-simulator/trade.ts'

/**
 * A local stand-in for Alipay's open-platform gateway (openapi.alipay.com/gateway.do) for WAP payments: the
 * signed page request shows a cashier page, "确认支付" posts the signed async notification to notify_url (retried
 * until the answer is "success") and sends the browser to return_url; query, close and refund answer in Alipay's
 * JSON with its signature. State lives in memory.
 */

export interface AlipaySimulatorOptions {
  appId: string
  sellerId: string
  /** The merchant app's public key: requests must verify with it. */
  appPublicKey: crypto.KeyLike
  /** Alipay's own private key: answers and notifications are signed with it. */
  alipayPrivateKey: crypto.KeyLike
  publicBase: () => string
  now: () => Date
  fetch?: typeof globalThis.fetch
  retryDelaysMs?: readonly number[]
}

export interface AlipaySimulator {
  trades: Map<string, AlipaySimTrade>
  notifier: Notifier
  faults: AlipayFaults
  pay(outTradeNo: string): Delivery
  /** Makes a refund taken without moving money (`faults.refundWithoutFundChange: 'pending'`) done now. */
  settleRefund(outTradeNo: string, requestNo: string): void
  /** The signed form Alipay posts for a paid trade (tests replay and tamper with it). */
  paymentNotification(trade: AlipaySimTrade, overrides?: Params): string
  plugin: (app: FastifyInstance) => Promise<void>
  close(): void
}

export function createAlipaySimulator(options: AlipaySimulatorOptions): AlipaySimulator {
  const trades = new Map<string, AlipaySimTrade>()
  const byToken = new Map<string, AlipaySimTrade>()
  const faults: AlipaySimulator['faults'] = { refundError: null, refundWithoutFundChange: null, billError: null }
  const bills = createAlipayBills({
    trades,
    sellerId: options.sellerId,
    publicBase: options.publicBase,
    now: options.now,
  })
  const notifier = createNotifier({
    fetch: options.fetch ?? globalThis.fetch,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  })

  function expireIfDue(t: AlipaySimTrade) {
    if (t.status === 'WAIT_BUYER_PAY' && t.timeExpire && t.timeExpire.getTime() <= options.now().getTime())
      t.status = 'TRADE_CLOSED'
  }

  function signedForm(params: Params) {
    const all: Params = { ...params, sign_type: 'RSA2' }
    // Notifications are signed without sign_type in the content.
    const sign = rsaSign(options.alipayPrivateKey, signContent(all, ['sign', 'sign_type']))
    return new URLSearchParams(
      Object.entries({ ...all, sign }).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
    ).toString()
  }

  function paymentNotification(t: AlipaySimTrade, overrides: Params = {}) {
    const paid = t.gmtPayment ?? options.now()
    return signedForm({
      notify_time: beijingDateTime(options.now()),
      notify_type: 'trade_status_sync',
      notify_id: `${crypto.randomBytes(16).toString('hex')}`,
      charset: 'utf-8',
      version: '1.0',
      auth_app_id: options.appId,
      app_id: options.appId,
      trade_no: t.tradeNo,
      out_trade_no: t.outTradeNo,
      seller_id: options.sellerId,
      buyer_id: '2088102177846880',
      buyer_logon_id: '159****5620',
      trade_status: t.status,
      total_amount: fenToYuan(t.total),
      receipt_amount: fenToYuan(t.total),
      buyer_pay_amount: fenToYuan(t.total),
      invoice_amount: fenToYuan(t.total),
      point_amount: '0.00',
      subject: t.subject,
      gmt_create: beijingDateTime(paid),
      gmt_payment: beijingDateTime(paid),
      fund_bill_list: JSON.stringify([{ amount: fenToYuan(t.total), fundChannel: 'ALIPAYACCOUNT' }]),
      ...overrides,
    })
  }

  function pay(outTradeNo: string) {
    const t = trades.get(outTradeNo)
    if (!t) throw new Error(`no trade ${outTradeNo}`)
    expireIfDue(t)
    if (t.status !== 'WAIT_BUYER_PAY') throw new Error(`trade ${outTradeNo} is ${t.status}`)
    t.status = 'TRADE_SUCCESS'
    t.gmtPayment = options.now()
    const body = paymentNotification(t)
    const id = new URLSearchParams(body).get('notify_id')!
    return notifier.send(
      id,
      t.notifyUrl ?? '',
      () => ({ headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body }),
      (status, text) => status === 200 && text.trim() === 'success',
    )
  }

  /** An answer under `<method>_response` (or `error_response`), signed over its exact JSON text as Alipay signs. */
  function answer(reply: FastifyReply, key: string, content: Record<string, unknown>) {
    const inner = JSON.stringify(content)
    const sign = rsaSign(options.alipayPrivateKey, inner)
    return reply.code(200).type('text/html;charset=utf-8').send(`{"${key}":${inner},"sign":"${sign}"}`)
  }

  function html(reply: FastifyReply, body: string) {
    return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body)
  }

  function checkCommon(p: Params): Record<string, unknown> | null {
    if (!p.app_id || p.app_id !== options.appId)
      return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-app-id', sub_msg: '无效的AppID参数' }
    if (p.sign_type !== 'RSA2')
      return {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-signature-type',
        sub_msg: '无效的签名类型',
      }
    if (!verifyRequestParams(p, options.appPublicKey))
      return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' }
    const ts = parseAlipayTime(p.timestamp)
    if (!ts || Math.abs(ts.getTime() - options.now().getTime()) > 30 * 60_000) {
      return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-timestamp', sub_msg: '非法的时间戳参数' }
    }
    return null
  }

  function biz(p: Params): Record<string, unknown> | null {
    try {
      const b = JSON.parse(p.biz_content ?? '') as unknown
      return b && typeof b === 'object' ? (b as Record<string, unknown>) : null
    } catch {
      return null
    }
  }

  function openCashier(reply: FastifyReply, p: Params) {
    const problem = checkCommon(p)
    if (problem)
      return html(
        reply,
        renderResult(AlipayBrand, '支付遇到问题', `错误代码 ${String(problem.sub_code)}：${String(problem.sub_msg)}`),
      )
    const b = biz(p)
    const total = yuanToFen(typeof b?.total_amount === 'string' ? b.total_amount : undefined)
    const outTradeNo = typeof b?.out_trade_no === 'string' ? b.out_trade_no : ''
    if (
      !b ||
      !outTradeNo ||
      total === null ||
      total < 1 ||
      typeof b.subject !== 'string' ||
      b.product_code !== 'QUICK_WAP_WAY'
    ) {
      return html(reply, renderResult(AlipayBrand, '支付遇到问题', '错误代码 invalid-parameter：参数有误'))
    }
    const { huabei, error } = huabeiOf(b.extend_params)
    if (error) return html(reply, renderResult(AlipayBrand, '支付遇到问题', `错误代码 INVALID_PARAMETER：${error}`))
    let t = trades.get(outTradeNo)
    if (t) expireIfDue(t)
    if (t && t.total !== total)
      return html(reply, renderResult(AlipayBrand, '支付遇到问题', '错误代码 ACQ.CONTEXT_INCONSISTENT：交易信息被篡改'))
    if (!t) {
      t = {
        outTradeNo,
        tradeNo: `2026${digits(24)}`,
        subject: b.subject,
        total,
        notifyUrl: p.notify_url ?? null,
        returnUrl: p.return_url ?? null,
        quitUrl: typeof b.quit_url === 'string' ? b.quit_url : null,
        timeExpire: parseAlipayTime(typeof b.time_expire === 'string' ? b.time_expire : undefined),
        token: crypto.randomBytes(12).toString('base64url'),
        status: 'WAIT_BUYER_PAY',
        gmtPayment: null,
        refunded: 0,
        refunds: new Map(),
        // As Alipay does: the periods of a trade's first request stand (a changed choice needs a new out_trade_no).
        huabei,
      }
      trades.set(outTradeNo, t)
      byToken.set(t.token, t)
    }
    if (t.status !== 'WAIT_BUYER_PAY') {
      return html(
        reply,
        renderResult(AlipayBrand, t.status === 'TRADE_CLOSED' ? '交易已关闭' : '订单已支付', '请回到商户页面查看。'),
      )
    }
    const trade = { description: t.subject, amountFen: t.total, orderNo: t.outTradeNo, payWay: payWayOf(t) }
    return html(reply, renderCashier(AlipayBrand, options.publicBase(), trade, { token: t.token }))
  }

  /** Where the browser goes after paying: return_url with the synchronous, signed result. */
  function returnLocation(t: AlipaySimTrade) {
    if (!t.returnUrl || !/^https?:\/\//.test(t.returnUrl)) return null
    const params: Params = {
      charset: 'utf-8',
      out_trade_no: t.outTradeNo,
      method: 'alipay.trade.wap.pay.return',
      total_amount: fenToYuan(t.total),
      trade_no: t.tradeNo,
      auth_app_id: options.appId,
      version: '1.0',
      app_id: options.appId,
      sign_type: 'RSA2',
      seller_id: options.sellerId,
      timestamp: beijingDateTime(options.now()),
    }
    params.sign = rsaSign(options.alipayPrivateKey, signContent(params, ['sign', 'sign_type']))
    const url = new URL(t.returnUrl)
    for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v)
    return url.toString()
  }

  function apiCall(reply: FastifyReply, p: Params) {
    const method = p.method ?? ''
    // A method the gateway does not know has no response key of its own: Alipay answers under error_response.
    if (!GATEWAY_METHODS.has(method))
      return answer(reply, 'error_response', {
        code: '40002',
        msg: 'Invalid Arguments',
        sub_code: 'isv.invalid-method',
        sub_msg: '不存在的方法名',
      })
    const key = responseKey(method)
    const problem = checkCommon(p)
    if (problem) return answer(reply, key, problem)
    const b = biz(p)
    if (method === BILL_METHOD) {
      const refused = faults.billError
      if (refused)
        return answer(reply, key, {
          code: '40004',
          msg: 'Business Failed',
          sub_code: refused.subCode,
          sub_msg: refused.subMsg,
        })
      return answer(reply, key, bills.downloadUrl(b))
    }
    const t = typeof b?.out_trade_no === 'string' ? trades.get(b.out_trade_no) : undefined
    if (t) expireIfDue(t)
    return answer(reply, key, gatewayMethod(method, t, b, { faults, now: options.now }))
  }

  async function plugin(app: FastifyInstance) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
    })
    app.addHook('onClose', async () => close())

    // The browser arrives here with the signed alipay.trade.wap.pay request (a page redirect).
    app.get<{ Querystring: Params }>('/gateway.do', { schema: { hide: true } }, async (request, reply) => {
      const p = { ...request.query }
      if (p.method !== 'alipay.trade.wap.pay')
        return html(reply, renderResult(AlipayBrand, '支付遇到问题', '错误代码 invalid-method'))
      return openCashier(reply, p)
    })

    // API calls, and page requests posted as a form. The parameters may come in the URL, the form body or both:
    // Ant Group's alipay-sdk (v4) puts the common ones (app_id, method, sign, timestamp, …) in the query string and
    // biz_content in the body; our adapter posts everything in the body. The gateway reads both, as Alipay's does.
    app.post<{ Body: Params; Querystring: Params }>(
      '/gateway.do',
      { schema: { hide: true } },
      async (request, reply) => {
        const p: Params = { ...request.query, ...(request.body ?? {}) }
        if (p.method === 'alipay.trade.wap.pay') return openCashier(reply, p)
        return apiCall(reply, p)
      },
    )

    // The bill archive behind a bill_download_url (Alipay serves it from dwbillcenter.alipay.com, unsigned).
    app.get<{ Querystring: { token?: string } }>(
      '/bill/download',
      { schema: { hide: true } },
      async (request, reply) => {
        const zip = bills.file(request.query.token ?? '')
        if (!zip) return reply.code(404).type('text/plain; charset=utf-8').send('账单下载地址已过期')
        return reply.code(200).type('application/zip').send(zip)
      },
    )

    app.post<{ Body: Params }>('/cashier/pay', { schema: { hide: true } }, async (request, reply) => {
      const t = byToken.get(request.body?.token ?? '')
      if (!t) return html(reply, renderResult(AlipayBrand, '订单不存在', ''))
      expireIfDue(t)
      if (t.status === 'WAIT_BUYER_PAY') pay(t.outTradeNo)
      else if (t.status === 'TRADE_CLOSED')
        return html(reply, renderResult(AlipayBrand, '交易已关闭', '请回到商户页面重新下单。'))
      const location = returnLocation(t)
      return location ? reply.redirect(location, 302) : html(reply, renderResult(AlipayBrand, '支付成功', ''))
    })

    app.post<{ Body: Params }>('/cashier/cancel', { schema: { hide: true } }, async (request, reply) => {
      const t = byToken.get(request.body?.token ?? '')
      const back = t?.quitUrl ?? t?.returnUrl
      return back && /^https?:\/\//.test(back)
        ? reply.redirect(back, 302)
        : html(reply, renderResult(AlipayBrand, '已取消支付', ''))
    })
  }

  function close() {
    notifier.close()
  }

  function settle(outTradeNo: string, requestNo: string) {
    const t = trades.get(outTradeNo)
    if (t) settleRefund(t, requestNo, options.now())
  }

  return { trades, notifier, faults, pay, settleRefund: settle, paymentNotification, plugin, close }
}
