import type crypto from 'node:crypto'
import { fenToYuan, yuanToFen } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import {
  parseAlipayTime,
  responseKey,
  responseSignedText,
  signParams,
  verifyNotificationParams,
  type Params,
} from './alipay-crypto.ts'
import { alipayBillDetail, parseAlipayTradeBill } from './alipay-bill.ts'
import { rsaVerify } from './wechatpay-crypto.ts'
import {
  NotificationError,
  ProviderError,
  type IncomingNotification,
  type PaymentProvider,
  type PrepayResult,
  type ProviderRefundStatus,
  type ProviderTrade,
  type ProviderTransport,
  type RefundResult,
  type VerifiedPayment,
} from './payments.ts'

/** An Alipay app: who it is and the keys it signs and verifies with (from the configuration). */
export interface AlipayMerchant {
  appId: string
  /** https://openapi.alipay.com/gateway.do, or the simulator's gateway. */
  gateway: string
  privateKey: crypto.KeyObject
  /** Alipay's public key ("支付宝公钥"), for answers and notifications. */
  alipayPublicKey: crypto.KeyObject
}

export type AlipayOptions = AlipayMerchant & ProviderTransport

type AlipayAnswer = Record<string, unknown> & { code?: string; msg?: string; sub_code?: string; sub_msg?: string }

const tradeState: Record<string, ProviderTrade['state']> = {
  WAIT_BUYER_PAY: 'not_paid',
  TRADE_SUCCESS: 'paid',
  TRADE_FINISHED: 'paid',
  TRADE_CLOSED: 'closed',
}

const REFUND_REFUSALS = [
  'ACQ.TRADE_NOT_EXIST',
  'ACQ.TRADE_STATUS_ERROR',
  'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
  'ACQ.REASON_TRADE_REFUND_FEE_ERR',
  'ACQ.SELLER_BALANCE_NOT_ENOUGH',
]

/**
 * Huabei instalments (花呗分期) on alipay.trade.wap.pay: extend_params.hb_fq_num (the periods: 3, 6 or 12) and
 * hb_fq_seller_percent (the seller's share of the fee: 100, or 0 when the buyer bears it), both strings, as Alipay's
 * SDK models (ExtendParams) and its Huabei integration notes give them. Not confirmed against opendocs.alipay.com
 * itself (not reachable from here): whether the single-channel Huabei cashier also needs
 * enable_pay_channels=pcreditpayInstallment on WAP (not sent: the standard cashier then offers other methods too),
 * and the minimum amount (the notes advise at least 100 yuan); the merchant must have signed the Huabei product,
 * with the periods it offers, or the gateway refuses the request.
 */
function huabeiParams(h: { periods: number; sellerPercent: number }) {
  return { hb_fq_num: String(h.periods), hb_fq_seller_percent: String(h.sellerPercent) }
}

/**
 * The Alipay open-platform adapter for WAP payments (alipay.trade.wap.pay) with RSA2 signatures; the trade
 * query, close and refund go over the gateway, and every answer's signature is checked.
 */
export function createAlipay(options: AlipayOptions): PaymentProvider {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const now = options.now ?? (() => new Date())

  function commonParams(method: string, biz: Record<string, unknown>, extra: Params = {}): Params {
    const params: Params = {
      app_id: options.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: beijingDateTime(now()),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(biz),
    }
    params.sign = signParams(params, options.privateKey)
    return params
  }

  async function call(method: string, biz: Record<string, unknown>): Promise<AlipayAnswer> {
    const params = commonParams(method, biz)
    const form = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))
    let text: string
    try {
      const res = await fetchImpl(`${options.gateway}?charset=utf-8`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
      })
      text = await res.text()
      if (!res.ok) throw new ProviderError(null, `HTTP ${res.status} from Alipay ${method}`)
    } catch (err) {
      if (err instanceof ProviderError) throw err
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error'
      throw new ProviderError(null, `${reason} calling Alipay ${method}`)
    }
    const key = responseKey(method)
    let json: Record<string, unknown>
    try {
      json = JSON.parse(text) as Record<string, unknown>
    } catch {
      throw new ProviderError(null, `non-JSON answer from Alipay ${method}`)
    }
    const answer = (json[key] ?? json.error_response) as AlipayAnswer | undefined
    if (!answer || typeof answer !== 'object') throw new ProviderError(null, `Alipay ${method}: no ${key}`)
    // Every answer is verified before it is believed, failures included: Alipay signs business failures
    // (ACQ.TRADE_NOT_EXIST, ACQ.SELLER_BALANCE_NOT_ENOUGH…) like successes, and an unsigned or forged "trade does
    // not exist" must not close an order or fail a refund. A failure that does not verify is a failure without a
    // code (the caller retries later). Not confirmed in Alipay's documentation: whether every `error_response`
    // (gateway-level errors such as a missing method) carries a sign; an unsigned one is treated the same way.
    const signed = responseSignedText(text, json[key] ? key : 'error_response')
    const sign = typeof json.sign === 'string' ? json.sign : null
    if (!signed || !sign || !rsaVerify(options.alipayPublicKey, signed, sign)) {
      throw new ProviderError('SIGN_ERROR', `Alipay answer to ${method} (code ${answer.code}) failed verification`)
    }
    return answer
  }

  function failure(method: string, a: AlipayAnswer) {
    return new ProviderError(
      a.sub_code ?? a.code ?? null,
      `Alipay ${method}: ${a.code} ${a.sub_code ?? ''} ${a.sub_msg ?? a.msg ?? ''}`.trim(),
    )
  }

  async function queryRefund(input: { orderNo: string; refundNo: string }): Promise<ProviderRefundStatus> {
    const a = await call('alipay.trade.fastpay.refund.query', {
      out_trade_no: input.orderNo,
      out_request_no: input.refundNo,
    })
    const none: ProviderRefundStatus = { state: 'not_found', providerRefundId: null, amountFen: null }
    if (a.code !== '10000') {
      if (a.sub_code === 'ACQ.TRADE_NOT_EXIST') return none
      throw failure('alipay.trade.fastpay.refund.query', a)
    }
    // REFUND_SUCCESS is a refund done; without it Alipay did not get the request or the refund failed: send it
    // again with the same out_request_no, which Alipay answers without moving money twice.
    if (a.refund_status !== 'REFUND_SUCCESS') return none
    return {
      state: 'succeeded',
      providerRefundId: input.refundNo,
      amountFen: yuanToFen(typeof a.refund_amount === 'string' ? a.refund_amount : undefined),
    }
  }

  return {
    name: 'alipay',
    appId: options.appId,
    mchId: options.appId,

    async prepay(input): Promise<PrepayResult> {
      if (input.method !== 'alipay_wap')
        throw new ProviderError('PARAM_ERROR', `${input.method} is not an Alipay method`)
      const params = commonParams(
        'alipay.trade.wap.pay',
        {
          out_trade_no: input.orderNo,
          total_amount: fenToYuan(input.amountFen),
          subject: input.description.slice(0, 256),
          product_code: 'QUICK_WAP_WAY',
          time_expire: beijingDateTime(input.expiresAt),
          quit_url: input.quitUrl,
          ...(input.huabei && { extend_params: huabeiParams(input.huabei) }),
        },
        { return_url: input.returnUrl, notify_url: input.notifyUrl },
      )
      const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))
      // A page redirect: the browser takes the signed request to the gateway, which shows the cashier.
      return { redirectUrl: `${options.gateway}?${query.toString()}` }
    },

    async query(orderNo) {
      const a = await call('alipay.trade.query', { out_trade_no: orderNo })
      if (a.code !== '10000') {
        if (a.sub_code === 'ACQ.TRADE_NOT_EXIST')
          return { state: 'not_found', transactionId: null, amountFen: null, paidAt: null, appId: null, mchId: null }
        throw failure('alipay.trade.query', a)
      }
      return {
        state: tradeState[String(a.trade_status)] ?? 'not_paid',
        transactionId: typeof a.trade_no === 'string' ? a.trade_no : null,
        amountFen: yuanToFen(typeof a.total_amount === 'string' ? a.total_amount : undefined),
        paidAt: parseAlipayTime(typeof a.send_pay_date === 'string' ? a.send_pay_date : undefined),
        appId: options.appId,
        mchId: options.appId,
      }
    },

    async close(orderNo) {
      const a = await call('alipay.trade.close', { out_trade_no: orderNo })
      // A member who never opened the cashier left no trade at Alipay: nothing to close.
      if (a.code !== '10000' && a.sub_code !== 'ACQ.TRADE_NOT_EXIST') throw failure('alipay.trade.close', a)
    },

    async refund(input): Promise<RefundResult> {
      const a = await call('alipay.trade.refund', {
        out_trade_no: input.orderNo,
        refund_amount: fenToYuan(input.amountFen),
        out_request_no: input.refundNo,
        refund_reason: input.reason.slice(0, 256),
      })
      if (a.code === '10000') {
        // Code 10000 says the call worked, not that money moved: only fund_change=Y says this call refunded. Without
        // it (a refund Alipay already made for this out_request_no, or one still under way) the refund query
        // decides: REFUND_SUCCESS with our amount counts; anything else stays processing, and the refund sweep asks
        // again (Alipay advises querying 10 s or more after the refund: a first "not yet" is normal).
        if (a.fund_change === 'Y') return { state: 'succeeded', providerRefundId: input.refundNo }
        const q = await queryRefund({ orderNo: input.orderNo, refundNo: input.refundNo })
        if (q.state === 'succeeded' && (q.amountFen === null || q.amountFen === input.amountFen))
          return { state: 'succeeded', providerRefundId: input.refundNo }
        return { state: 'processing', providerRefundId: null }
      }
      // These refusals do not go away by themselves (an operator retries once the cause is dealt with, e.g. the
      // seller's balance topped up); anything else (system busy, network) is retried by the refund sweep.
      if (REFUND_REFUSALS.includes(a.sub_code ?? '')) {
        return { state: 'failed', providerRefundId: null, detail: `${a.sub_code} ${a.sub_msg ?? ''}`.trim() }
      }
      throw failure('alipay.trade.refund', a)
    },

    queryRefund,

    async tradeBill(date) {
      const a = await call('alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: date })
      if (a.code !== '10000' || typeof a.bill_download_url !== 'string')
        throw failure('alipay.data.dataservice.bill.downloadurl.query', a)
      // The file itself carries no signature: its address came in the signed answer above, valid for 30 s.
      let zip: Buffer
      try {
        const res = await fetchImpl(a.bill_download_url, { signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) })
        if (!res.ok) throw new ProviderError(null, `HTTP ${res.status} downloading the Alipay bill of ${date}`)
        zip = Buffer.from(await res.arrayBuffer())
      } catch (err) {
        if (err instanceof ProviderError) throw err
        throw new ProviderError(null, `network error downloading the Alipay bill of ${date}`)
      }
      try {
        return parseAlipayTradeBill(date, alipayBillDetail(zip))
      } catch (err) {
        throw new ProviderError(null, `Alipay bill of ${date}: ${err instanceof Error ? err.message : 'unreadable'}`)
      }
    },

    verifyPayment(n: IncomingNotification): VerifiedPayment {
      const form = new URLSearchParams(n.body)
      const params: Params = {}
      for (const [k, v] of form) params[k] = v
      if (!params.sign) throw new NotificationError('bad_signature', 'no sign')
      if (!verifyNotificationParams(params, options.alipayPublicKey))
        throw new NotificationError('bad_signature', 'signature does not match')
      const amountFen = yuanToFen(params.total_amount)
      if (!params.notify_id || !params.out_trade_no || !params.trade_no || amountFen === null || !params.app_id) {
        throw new NotificationError('bad_body', 'notification lacks fields')
      }
      return {
        notificationId: params.notify_id,
        orderNo: params.out_trade_no,
        success: params.trade_status === 'TRADE_SUCCESS' || params.trade_status === 'TRADE_FINISHED',
        transactionId: params.trade_no,
        amountFen,
        appId: params.app_id,
        mchId: params.app_id,
        paidAt: parseAlipayTime(params.gmt_payment) ?? now(),
      }
    },
  }
}
