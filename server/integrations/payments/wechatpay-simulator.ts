import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderCashier, renderRefunds, renderResult, WechatBrand } from './cashier-page.ts'
import { createNotifier, DEFAULT_RETRY_DELAYS_MS, type Delivery, type Notifier } from './notifier.ts'
import { encryptPlatformCertificate } from './wechatpay-certificates.ts'
import {
  encryptResource,
  nonceStr,
  parseAuthorization,
  rfc3339Beijing,
  rsaVerify,
  signatureMessage,
  signResponse,
  verifyPaySign,
} from './wechatpay-crypto.ts'

/**
 * A local stand-in for WeChat Pay API v3 (api.mch.weixin.qq.com) and its payment pages, for development, the
 * demo and the tests. It checks merchant signatures, answers in WeChat Pay's format with signed headers, holds
 * each payment until a person presses "确认支付" on its cashier page (or a test calls `pay`), then posts the
 * encrypted, signed notification to notify_url, retrying like WeChat Pay. State lives in memory.
 */

export interface WechatPaySimulatorOptions {
  mchid: string
  merchantSerial: string
  merchantPublicKey: crypto.KeyLike
  apiV3Key: string
  /** Sign answers and notifications with the WeChat Pay public key (PUB_KEY_ID_…) or the platform certificate. */
  signWith: 'public_key' | 'certificate'
  /** The platform certificate signing now; with its PEM it is listed by GET /v3/certificates. */
  platform: SimPlatform
  /** The certificate `rotatePlatformCertificate()` switches to. */
  nextPlatform?: SimPlatform
  publicKey: { id: string; privateKey: crypto.KeyLike }
  /** Where browsers reach this simulator (for h5_url, code_url and the bridge script). */
  publicBase: () => string
  now: () => Date
  fetch?: typeof globalThis.fetch
  retryDelaysMs?: readonly number[]
  /** How long a refund stays PROCESSING before it succeeds and is notified. */
  refundDelayMs?: number
}

export interface SimPlatform {
  serial: string
  privateKey: crypto.KeyLike
  certificate?: string
}

type TradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND'

export interface SimTrade {
  outTradeNo: string
  appid: string
  mchid: string
  tradeType: 'JSAPI' | 'MWEB' | 'NATIVE'
  description: string
  total: number
  notifyUrl: string
  timeExpire: Date
  openid: string | null
  prepayId: string
  code: string
  state: TradeState
  transactionId: string | null
  successTime: Date | null
  refunded: number
}

export interface SimRefund {
  outRefundNo: string
  refundId: string
  outTradeNo: string
  amount: number
  status: 'PROCESSING' | 'SUCCESS' | 'ABNORMAL'
  notifyUrl: string | null
  createdAt: Date
}

export interface WechatPaySimulator {
  trades: Map<string, SimTrade>
  refunds: Map<string, SimRefund>
  notifier: Notifier
  /** The merchant API calls received, oldest first (the last 1000): method and path without the mount prefix. */
  requests: { method: string; path: string }[]
  /** Test controls; the demo never changes them. */
  faults: {
    /** Refuse new refunds with this error, e.g. 403 NOT_ENOUGH (the merchant's balance is short). */
    refundError: { status: number; code: string; message: string } | null
    /** Take refund requests but answer 500, as if the answer was lost on the way. */
    loseRefundAnswers: boolean
    /** Finish refunds without sending their notification. */
    silentRefunds: boolean
    /** How refunds end: SUCCESS, or ABNORMAL (the payer's account cannot take the money). */
    refundOutcome: 'SUCCESS' | 'ABNORMAL'
  }
  /** The serial answers and notifications are signed with now (certificate mode) and the serials listed. */
  platformSerial(): string
  /** Switches to `nextPlatform`, as WeChat Pay does when it renews its certificate: both stay listed. */
  rotatePlatformCertificate(): void
  /** Pays a held trade as if the member pressed "确认支付"; returns the notification delivery. */
  pay(outTradeNo: string): Delivery
  /** Builds the signed, encrypted notification WeChat Pay would send for a trade (tests replay and tamper with it). */
  paymentNotification(
    trade: SimTrade,
    overrides?: { id?: string; transaction?: Record<string, unknown>; timestamp?: number },
  ): { headers: Record<string, string>; body: string }
  refundNotification(refund: SimRefund, overrides?: { id?: string }): { headers: Record<string, string>; body: string }
  /** Completes a PROCESSING refund now and notifies. */
  completeRefund(outRefundNo: string): void
  plugin: (app: FastifyInstance) => Promise<void>
  close(): void
}

function digits(n: number) {
  let s = ''
  for (let i = 0; i < n; i++) s += crypto.randomInt(0, 10)
  return s
}

function aesNonce() {
  return crypto.randomBytes(9).toString('base64url').slice(0, 12)
}

export function createWechatPaySimulator(options: WechatPaySimulatorOptions): WechatPaySimulator {
  const trades = new Map<string, SimTrade>()
  const byPrepay = new Map<string, SimTrade>()
  const byCode = new Map<string, SimTrade>()
  const refunds = new Map<string, SimRefund>()
  const seenNonces = new Map<string, number>()
  const timers = new Set<NodeJS.Timeout>()
  const requests: WechatPaySimulator['requests'] = []
  const faults: WechatPaySimulator['faults'] = {
    refundError: null,
    loseRefundAnswers: false,
    silentRefunds: false,
    refundOutcome: 'SUCCESS',
  }
  let platform = options.platform
  const listed: SimPlatform[] = [options.platform]
  const notifier = createNotifier({
    fetch: options.fetch ?? globalThis.fetch,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
  })
  const accepted = (status: number) => status === 200 || status === 204

  function signer() {
    return options.signWith === 'public_key'
      ? { serial: options.publicKey.id, privateKey: options.publicKey.privateKey }
      : { serial: platform.serial, privateKey: platform.privateKey }
  }

  function rotatePlatformCertificate() {
    if (!options.nextPlatform) throw new Error('no next platform certificate configured')
    platform = options.nextPlatform
    if (!listed.includes(platform)) listed.push(platform)
  }

  /** GET /v3/certificates: every listed certificate, encrypted with the APIv3 key. */
  function certificatesJson() {
    const at = options.now()
    return {
      data: listed
        .filter((p) => p.certificate)
        .map((p) =>
          encryptPlatformCertificate({
            certificatePem: p.certificate!,
            apiV3Key: options.apiV3Key,
            nonce: aesNonce(),
            effectiveTime: rfc3339Beijing(new Date(at.getTime() - 86_400_000)),
            expireTime: rfc3339Beijing(new Date(at.getTime() + 5 * 365 * 86_400_000)),
          }),
        ),
    }
  }

  function signed(body: string) {
    const s = signer()
    return signResponse({
      privateKey: s.privateKey,
      serial: s.serial,
      body,
      timestamp: Math.floor(options.now().getTime() / 1000),
      nonce: nonceStr(),
    })
  }

  function send(reply: FastifyReply, status: number, payload?: unknown) {
    const body = payload === undefined ? '' : JSON.stringify(payload)
    reply.code(status).headers({ ...signed(body), 'request-id': crypto.randomUUID() })
    if (payload === undefined) return reply.send()
    return reply.type('application/json; charset=utf-8').send(body)
  }

  const fail = (reply: FastifyReply, status: number, code: string, message: string) =>
    send(reply, status, { code, message })

  /** The merchant's request signature, as WeChat Pay checks it; null when it is fine. */
  function checkRequest(request: FastifyRequest, body: string): [number, string, string] | null {
    const auth = parseAuthorization(request.headers.authorization)
    if (!auth) return [401, 'SIGN_ERROR', 'Authorization 头缺失或格式错误']
    if (auth.mchid !== options.mchid) return [401, 'SIGN_ERROR', 'mchid 与商户号不一致']
    if (auth.serialNo.toUpperCase() !== options.merchantSerial.toUpperCase())
      return [401, 'SIGN_ERROR', '商户证书序列号有误']
    const ts = Number(auth.timestamp)
    if (!Number.isFinite(ts) || Math.abs(options.now().getTime() / 1000 - ts) > 300)
      return [401, 'SIGN_ERROR', '请求时间戳过期']
    const message = signatureMessage([request.method, request.url, auth.timestamp, auth.nonce, body])
    if (!rsaVerify(options.merchantPublicKey, message, auth.signature)) return [401, 'SIGN_ERROR', '签名错误']
    const nowMs = options.now().getTime()
    if (seenNonces.has(`${auth.nonce}|${auth.timestamp}`)) return [401, 'SIGN_ERROR', '重复的请求']
    seenNonces.set(`${auth.nonce}|${auth.timestamp}`, nowMs)
    if (seenNonces.size > 5000) for (const [k, t] of seenNonces) if (nowMs - t > 600_000) seenNonces.delete(k)
    return null
  }

  function expireIfDue(t: SimTrade) {
    if (t.state === 'NOTPAY' && t.timeExpire.getTime() <= options.now().getTime()) t.state = 'CLOSED'
  }

  function transactionJson(t: SimTrade) {
    return {
      appid: t.appid,
      mchid: t.mchid,
      out_trade_no: t.outTradeNo,
      transaction_id: t.transactionId ?? undefined,
      trade_type: t.tradeType,
      trade_state: t.state,
      trade_state_desc: { NOTPAY: '未支付', SUCCESS: '支付成功', CLOSED: '订单已关闭', REFUND: '转入退款' }[t.state],
      bank_type: t.state === 'NOTPAY' || t.state === 'CLOSED' ? undefined : 'OTHERS',
      attach: '',
      success_time: t.successTime ? rfc3339Beijing(t.successTime) : undefined,
      payer: {
        openid: t.openid ?? `o_sim_${crypto.createHash('sha1').update(t.outTradeNo).digest('hex').slice(0, 20)}`,
      },
      amount: {
        total: t.total,
        payer_total: t.state === 'NOTPAY' || t.state === 'CLOSED' ? undefined : t.total,
        currency: 'CNY',
        payer_currency: 'CNY',
      },
    }
  }

  function envelope(id: string, eventType: string, summary: string, originalType: string, resource: unknown) {
    return JSON.stringify({
      id,
      create_time: rfc3339Beijing(options.now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary,
      resource: encryptResource(JSON.stringify(resource), options.apiV3Key, aesNonce(), originalType, originalType),
    })
  }

  function paymentNotification(
    t: SimTrade,
    overrides: { id?: string; transaction?: Record<string, unknown>; timestamp?: number } = {},
  ) {
    const body = envelope(overrides.id ?? crypto.randomUUID(), 'TRANSACTION.SUCCESS', '支付成功', 'transaction', {
      ...transactionJson(t),
      ...overrides.transaction,
    })
    const s = signer()
    const headers = signResponse({
      privateKey: s.privateKey,
      serial: s.serial,
      body,
      timestamp: overrides.timestamp ?? Math.floor(options.now().getTime() / 1000),
      nonce: nonceStr(),
    })
    return { headers: { ...headers, 'content-type': 'application/json' }, body }
  }

  function refundNotification(r: SimRefund, overrides: { id?: string } = {}) {
    const t = trades.get(r.outTradeNo)!
    const body = envelope(
      overrides.id ?? crypto.randomUUID(),
      r.status === 'SUCCESS' ? 'REFUND.SUCCESS' : 'REFUND.ABNORMAL',
      '退款成功',
      'refund',
      {
        mchid: options.mchid,
        out_trade_no: r.outTradeNo,
        transaction_id: t.transactionId,
        out_refund_no: r.outRefundNo,
        refund_id: r.refundId,
        refund_status: r.status,
        success_time: rfc3339Beijing(options.now()),
        user_received_account: '支付用户零钱',
        amount: { total: t.total, refund: r.amount, payer_total: t.total, payer_refund: r.amount },
      },
    )
    return { headers: { ...signed(body), 'content-type': 'application/json' }, body }
  }

  /** Sends a notification; the body (and its id) stays the same across retries, the signature is made per attempt. */
  function deliver(url: string, make: () => { headers: Record<string, string>; body: string }) {
    const first = make()
    const id = (JSON.parse(first.body) as { id: string }).id
    return notifier.send(
      id,
      url,
      () => ({ headers: { ...signed(first.body), 'content-type': 'application/json' }, body: first.body }),
      accepted,
    )
  }

  function pay(outTradeNo: string) {
    const t = trades.get(outTradeNo)
    if (!t) throw new Error(`no trade ${outTradeNo}`)
    expireIfDue(t)
    if (t.state !== 'NOTPAY') throw new Error(`trade ${outTradeNo} is ${t.state}`)
    t.state = 'SUCCESS'
    t.transactionId = `4200${digits(24)}`
    t.successTime = options.now()
    return deliver(t.notifyUrl, () => paymentNotification(t))
  }

  function completeRefund(outRefundNo: string) {
    const r = refunds.get(outRefundNo)
    if (!r || r.status !== 'PROCESSING') return
    r.status = faults.refundOutcome
    if (r.status === 'SUCCESS') {
      const t = trades.get(r.outTradeNo)!
      t.refunded += r.amount
      t.state = 'REFUND'
    }
    if (r.notifyUrl && !faults.silentRefunds) deliver(r.notifyUrl, () => refundNotification(r))
  }

  function refundJson(r: SimRefund) {
    const t = trades.get(r.outTradeNo)!
    return {
      refund_id: r.refundId,
      out_refund_no: r.outRefundNo,
      transaction_id: t.transactionId,
      out_trade_no: t.outTradeNo,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      create_time: rfc3339Beijing(r.createdAt),
      status: r.status,
      amount: { total: t.total, refund: r.amount, payer_total: t.total, payer_refund: r.amount, currency: 'CNY' },
    }
  }

  function prepay(tradeType: SimTrade['tradeType']) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = typeof request.body === 'string' ? request.body : ''
      const bad = checkRequest(request, raw)
      if (bad) return fail(reply, ...bad)
      let b: Record<string, unknown>
      try {
        b = JSON.parse(raw) as Record<string, unknown>
      } catch {
        return fail(reply, 400, 'PARAM_ERROR', '请求体不是合法的 JSON')
      }
      const amount = b.amount as { total?: unknown; currency?: unknown } | undefined
      const payer = b.payer as { openid?: unknown } | undefined
      const scene = b.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined
      const missing = ['appid', 'mchid', 'description', 'out_trade_no', 'notify_url'].find(
        (k) => typeof b[k] !== 'string' || !b[k],
      )
      if (missing)
        return fail(reply, 400, 'PARAM_ERROR', `输入源“/body/${missing}”映射到值字段“${missing}”字符串规则校验失败`)
      if (b.mchid !== options.mchid) return fail(reply, 400, 'PARAM_ERROR', 'mchid 与请求头不一致')
      if (!Number.isInteger(amount?.total) || (amount!.total as number) < 1)
        return fail(reply, 400, 'PARAM_ERROR', '订单金额必须为大于 0 的整数（分）')
      if (!/^[\w*|-]{6,32}$/.test(String(b.out_trade_no)))
        return fail(reply, 400, 'PARAM_ERROR', 'out_trade_no 格式不正确')
      if (!/^https?:\/\//.test(String(b.notify_url)))
        return fail(reply, 400, 'PARAM_ERROR', 'notify_url 必须是 http(s) 地址')
      if (tradeType === 'JSAPI' && (typeof payer?.openid !== 'string' || !payer.openid))
        return fail(reply, 400, 'PARAM_ERROR', 'JSAPI 下单必须传 payer.openid')
      if (tradeType === 'MWEB' && (typeof scene?.payer_client_ip !== 'string' || !scene.h5_info?.type)) {
        return fail(reply, 400, 'PARAM_ERROR', 'H5 下单必须传 scene_info.payer_client_ip 和 h5_info')
      }
      const outTradeNo = String(b.out_trade_no)
      const timeExpire =
        typeof b.time_expire === 'string' ? new Date(b.time_expire) : new Date(options.now().getTime() + 2 * 3600_000)
      const existing = trades.get(outTradeNo)
      if (existing) {
        expireIfDue(existing)
        if (existing.state === 'SUCCESS' || existing.state === 'REFUND')
          return fail(reply, 400, 'ORDERPAID', '该订单已支付')
        if (existing.state === 'CLOSED') return fail(reply, 400, 'ORDER_CLOSED', '订单已关闭')
        if (
          existing.tradeType !== tradeType ||
          existing.total !== amount!.total ||
          existing.description !== b.description
        ) {
          return fail(reply, 400, 'INVALID_REQUEST', '201 商户订单号重复')
        }
        return send(reply, 200, answerFor(existing))
      }
      const t: SimTrade = {
        outTradeNo,
        appid: String(b.appid),
        mchid: options.mchid,
        tradeType,
        description: String(b.description),
        total: amount!.total as number,
        notifyUrl: String(b.notify_url),
        timeExpire: Number.isNaN(timeExpire.getTime()) ? new Date(options.now().getTime() + 2 * 3600_000) : timeExpire,
        openid: typeof payer?.openid === 'string' ? payer.openid : null,
        prepayId: `wx${Date.now().toString(36)}${digits(18)}`,
        code: crypto.randomBytes(12).toString('base64url'),
        state: 'NOTPAY',
        transactionId: null,
        successTime: null,
        refunded: 0,
      }
      trades.set(outTradeNo, t)
      byPrepay.set(t.prepayId, t)
      byCode.set(t.code, t)
      return send(reply, 200, answerFor(t))
    }
  }

  function answerFor(t: SimTrade) {
    const base = options.publicBase()
    if (t.tradeType === 'JSAPI') return { prepay_id: t.prepayId }
    if (t.tradeType === 'MWEB') return { h5_url: `${base}/checkmweb?prepay_id=${t.prepayId}&package=${t.code}` }
    // WeChat's code_url is weixin://wxpay/bizpayurl?pr=…, which only WeChat can open; the simulator's opens its cashier.
    return { code_url: `${base}/scan?pr=${t.code}` }
  }

  function cashier(reply: FastifyReply, t: SimTrade, mode: 'h5' | 'jsapi' | 'native', redirectUrl: string) {
    expireIfDue(t)
    if (t.state !== 'NOTPAY') {
      const done = t.state === 'CLOSED' ? ['订单已关闭', '请回到商户页面重新下单。'] : ['订单已支付', '请勿重复支付。']
      return html(
        reply,
        renderResult(
          WechatBrand,
          done[0]!,
          done[1]!,
          mode === 'jsapi' ? bridgeMessage(t.state === 'CLOSED' ? 'fail' : 'ok') : '',
        ),
      )
    }
    const base = options.publicBase()
    return html(
      reply,
      renderCashier({
        brand: WechatBrand,
        merchant: '自学',
        description: t.description,
        amountFen: t.total,
        orderNo: t.outTradeNo,
        payAction: `${base}/cashier/pay`,
        cancelAction: `${base}/cashier/cancel`,
        fields: { prepay_id: t.prepayId, mode, redirect_url: redirectUrl },
      }),
    )
  }

  function bridgeMessage(result: 'ok' | 'cancel' | 'fail') {
    return `<script>parent.postMessage({ wxsim: ${JSON.stringify(result)} }, '*')</script>`
  }

  function html(reply: FastifyReply, body: string) {
    return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body)
  }

  /** Only http(s) addresses (a redirect_url the merchant appended); anything else goes nowhere. */
  function safeRedirect(value: unknown) {
    return typeof value === 'string' && /^https?:\/\//.test(value) ? value : ''
  }

  function afterCashier(
    reply: FastifyReply,
    mode: string,
    redirectUrl: string,
    result: 'ok' | 'cancel',
    message: string,
  ) {
    if (mode === 'jsapi') return html(reply, renderResult(WechatBrand, message, '', bridgeMessage(result)))
    if (mode === 'h5' && redirectUrl) return reply.redirect(redirectUrl, 302)
    return html(reply, renderResult(WechatBrand, message, result === 'ok' ? '可以回到电脑上的页面查看订单。' : ''))
  }

  async function plugin(app: FastifyInstance) {
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body))
    app.addHook('onClose', async () => close())
    app.addHook('onRequest', async (request) => {
      const at = request.url.indexOf('/v3/')
      if (at < 0) return
      requests.push({ method: request.method, path: request.url.slice(at) })
      if (requests.length > 1000) requests.shift()
    })

    app.get('/v3/certificates', { schema: { hide: true } }, async (request, reply) => {
      const bad = checkRequest(request, '')
      if (bad) return fail(reply, ...bad)
      return send(reply, 200, certificatesJson())
    })

    app.post('/v3/pay/transactions/jsapi', { schema: { hide: true } }, prepay('JSAPI'))
    app.post('/v3/pay/transactions/h5', { schema: { hide: true } }, prepay('MWEB'))
    app.post('/v3/pay/transactions/native', { schema: { hide: true } }, prepay('NATIVE'))

    app.get<{ Params: { no: string }; Querystring: { mchid?: string } }>(
      '/v3/pay/transactions/out-trade-no/:no',
      { schema: { hide: true } },
      async (request, reply) => {
        const bad = checkRequest(request, '')
        if (bad) return fail(reply, ...bad)
        if (request.query.mchid !== options.mchid) return fail(reply, 400, 'PARAM_ERROR', 'mchid 不正确')
        const t = trades.get(request.params.no)
        if (!t) return fail(reply, 404, 'ORDER_NOT_EXIST', '订单不存在')
        expireIfDue(t)
        return send(reply, 200, transactionJson(t))
      },
    )

    app.post<{ Params: { no: string } }>(
      '/v3/pay/transactions/out-trade-no/:no/close',
      { schema: { hide: true } },
      async (request, reply) => {
        const raw = typeof request.body === 'string' ? request.body : ''
        const bad = checkRequest(request, raw)
        if (bad) return fail(reply, ...bad)
        const t = trades.get(request.params.no)
        if (!t) return fail(reply, 404, 'ORDER_NOT_EXIST', '订单不存在')
        if (t.state === 'SUCCESS' || t.state === 'REFUND') return fail(reply, 400, 'ORDERPAID', '订单已支付，不能关闭')
        t.state = 'CLOSED'
        return send(reply, 204)
      },
    )

    app.post('/v3/refund/domestic/refunds', { schema: { hide: true } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : ''
      const bad = checkRequest(request, raw)
      if (bad) return fail(reply, ...bad)
      let b: {
        out_trade_no?: string
        out_refund_no?: string
        notify_url?: string
        amount?: { refund?: number; total?: number }
      }
      try {
        b = JSON.parse(raw) as typeof b
      } catch {
        return fail(reply, 400, 'PARAM_ERROR', '请求体不是合法的 JSON')
      }
      if (
        !b.out_refund_no ||
        !b.out_trade_no ||
        !Number.isInteger(b.amount?.refund) ||
        !Number.isInteger(b.amount?.total)
      ) {
        return fail(reply, 400, 'PARAM_ERROR', '缺少 out_trade_no、out_refund_no 或 amount')
      }
      const existing = refunds.get(b.out_refund_no)
      const t = trades.get(b.out_trade_no)
      if (!t || (t.state !== 'SUCCESS' && t.state !== 'REFUND'))
        return fail(reply, 404, 'RESOURCE_NOT_EXISTS', '订单不存在或未支付')
      if (!existing && faults.refundError)
        return fail(reply, faults.refundError.status, faults.refundError.code, faults.refundError.message)
      if (!existing) {
        if (b.amount!.total !== t.total) return fail(reply, 400, 'PARAM_ERROR', '订单金额与原订单不一致')
        const processing = [...refunds.values()]
          .filter((r) => r.outTradeNo === t.outTradeNo && r.status === 'PROCESSING')
          .reduce((s, r) => s + r.amount, 0)
        if (b.amount!.refund! < 1 || b.amount!.refund! > t.total - t.refunded - processing)
          return fail(reply, 403, 'NOT_ENOUGH', '可退款金额不足')
      }
      const r: SimRefund = existing ?? {
        outRefundNo: b.out_refund_no,
        refundId: `50${digits(27)}`,
        outTradeNo: t.outTradeNo,
        amount: b.amount!.refund!,
        status: 'PROCESSING',
        notifyUrl: typeof b.notify_url === 'string' ? b.notify_url : null,
        createdAt: options.now(),
      }
      if (!existing) {
        refunds.set(r.outRefundNo, r)
        const timer = setTimeout(() => {
          timers.delete(timer)
          completeRefund(r.outRefundNo)
        }, options.refundDelayMs ?? 50)
        timer.unref()
        timers.add(timer)
      }
      if (faults.loseRefundAnswers) return fail(reply, 500, 'SYSTEM_ERROR', '系统繁忙，请稍后重试')
      return send(reply, 200, refundJson(r))
    })

    app.get<{ Params: { no: string } }>(
      '/v3/refund/domestic/refunds/:no',
      { schema: { hide: true } },
      async (request, reply) => {
        const bad = checkRequest(request, '')
        if (bad) return fail(reply, ...bad)
        const r = refunds.get(request.params.no)
        if (!r) return fail(reply, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在')
        return send(reply, 200, refundJson(r))
      },
    )

    // The payment pages a browser sees.
    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/checkmweb',
      { schema: { hide: true } },
      async (request, reply) => {
        const t = byPrepay.get(request.query.prepay_id ?? '')
        if (!t || t.code !== request.query.package)
          return html(reply, renderResult(WechatBrand, '链接已失效', '请回到商户页面重新下单。'))
        return cashier(reply, t, 'h5', safeRedirect(request.query.redirect_url))
      },
    )

    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/scan',
      { schema: { hide: true } },
      async (request, reply) => {
        const t = byCode.get(request.query.pr ?? '')
        if (!t) return html(reply, renderResult(WechatBrand, '二维码已失效', '请回到商户页面重新下单。'))
        return cashier(reply, t, 'native', '')
      },
    )

    app.get<{ Querystring: Record<string, string | undefined> }>(
      '/jsapi',
      { schema: { hide: true } },
      async (request, reply) => {
        const q = request.query
        const prepayId = (q.package ?? '').replace(/^prepay_id=/, '')
        const t = byPrepay.get(prepayId)
        const params = {
          appId: q.appId ?? '',
          timeStamp: q.timeStamp ?? '',
          nonceStr: q.nonceStr ?? '',
          package: q.package ?? '',
          paySign: q.paySign ?? '',
        }
        // WeChat's client refuses a request whose paySign does not verify with the merchant key, or of another AppID.
        if (
          !t ||
          q.signType !== 'RSA' ||
          t.appid !== params.appId ||
          !verifyPaySign(params, options.merchantPublicKey)
        ) {
          return html(reply, renderResult(WechatBrand, '支付验证签名失败', '请联系商户。', bridgeMessage('fail')))
        }
        return cashier(reply, t, 'jsapi', '')
      },
    )

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))))
    })

    app.post<{ Body: Record<string, string | undefined> }>(
      '/cashier/pay',
      { schema: { hide: true } },
      async (request, reply) => {
        const t = byPrepay.get(request.body?.prepay_id ?? '')
        const mode = request.body?.mode ?? 'h5'
        const redirectUrl = safeRedirect(request.body?.redirect_url)
        if (!t) return html(reply, renderResult(WechatBrand, '订单不存在', ''))
        expireIfDue(t)
        if (t.state !== 'NOTPAY')
          return cashier(reply, t, mode === 'jsapi' ? 'jsapi' : mode === 'native' ? 'native' : 'h5', redirectUrl)
        pay(t.outTradeNo)
        return afterCashier(reply, mode, redirectUrl, 'ok', '支付成功')
      },
    )

    app.post<{ Body: Record<string, string | undefined> }>(
      '/cashier/cancel',
      { schema: { hide: true } },
      async (request, reply) =>
        afterCashier(
          reply,
          request.body?.mode ?? 'h5',
          safeRedirect(request.body?.redirect_url),
          'cancel',
          '已取消支付',
        ),
    )

    // The merchant platform's refunds (demo): a person completes a processing refund now instead of waiting.
    app.get('/refunds', { schema: { hide: true } }, async (_request, reply) => {
      const label = { PROCESSING: '退款处理中', SUCCESS: '退款成功', ABNORMAL: '退款异常' } as const
      const rows = [...refunds.values()]
        .sort(
          (a, b) =>
            Number(b.status === 'PROCESSING') - Number(a.status === 'PROCESSING') ||
            b.createdAt.getTime() - a.createdAt.getTime(),
        )
        .map((r) => ({
          refundNo: r.outRefundNo,
          orderNo: r.outTradeNo,
          amountFen: r.amount,
          status: label[r.status],
          processing: r.status === 'PROCESSING',
        }))
      return html(reply, renderRefunds(WechatBrand, rows, `${options.publicBase()}/refunds/complete`))
    })

    app.post<{ Body: Record<string, string | undefined> }>(
      '/refunds/complete',
      { schema: { hide: true } },
      async (request, reply) => {
        completeRefund(request.body?.out_refund_no ?? '')
        return reply.redirect(`${options.publicBase()}/refunds`, 303)
      },
    )

    app.get('/bridge.js', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(bridgeScript(options.publicBase())),
    )
  }

  function close() {
    notifier.close()
    for (const t of timers) clearTimeout(t)
    timers.clear()
  }

  return {
    trades,
    refunds,
    notifier,
    requests,
    faults,
    platformSerial: () => platform.serial,
    rotatePlatformCertificate,
    pay,
    paymentNotification,
    refundNotification,
    completeRefund,
    plugin,
    close,
  }
}

/**
 * The demo's stand-in for WeChat's in-app WeixinJSBridge: defined only where the real one is absent. It opens the
 * simulator's cashier over the page and answers getBrandWCPayRequest with WeChat's err_msg values.
 */
function bridgeScript(base: string) {
  return `/* Zixue WeChat Pay simulator bridge: for the demo only, never loaded when WeChat's own bridge exists. */
(function () {
  if (window.WeixinJSBridge) return;
  var base = ${JSON.stringify(base)};
  var origin = new URL(base, location.href).origin;
  window.WeixinJSBridge = {
    invoke: function (name, params, callback) {
      var done = typeof callback === 'function' ? callback : function () {};
      if (name !== 'getBrandWCPayRequest') { done({ err_msg: name + ':fail_not_supported_in_simulator' }); return; }
      var overlay = document.createElement('div');
      overlay.setAttribute('style', 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.45);display:flex;align-items:flex-end;justify-content:center');
      var frame = document.createElement('iframe');
      frame.title = '微信支付';
      frame.setAttribute('style', 'width:100%;max-width:500px;height:88%;border:0;border-radius:12px 12px 0 0;background:#f2f3f5');
      frame.src = base + '/jsapi?' + new URLSearchParams(params || {}).toString();
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      function onMessage(event) {
        if (event.origin !== origin || !event.data || typeof event.data.wxsim !== 'string') return;
        window.removeEventListener('message', onMessage);
        setTimeout(function () { overlay.remove(); done({ err_msg: 'get_brand_wcpay_request:' + event.data.wxsim }); }, event.data.wxsim === 'ok' ? 600 : 0);
      }
      window.addEventListener('message', onMessage);
    },
    on: function () {},
    call: function () {}
  };
  document.dispatchEvent(new Event('WeixinJSBridgeReady'));
})();
`
}
