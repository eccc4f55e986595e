import type crypto from 'node:crypto'
import { rfc3339Beijing } from '#shared/time.ts'
import { z } from 'zod'
import {
  NotificationError,
  ProviderError,
  type IncomingNotification,
  type PaymentProvider,
  type PrepayInput,
  type PrepayResult,
  type ProviderRefundStatus,
  type ProviderTransport,
  type RefundInput,
  type RefundResult,
  type VerifiedPayment,
  type VerifiedRefund,
} from './payments.ts'
import { fetchWechatTradeBill } from './wechatpay-bill.ts'
import { createCertificateStore, type CertificateStore } from './wechatpay-certificates.ts'
import {
  errorBody,
  notificationBody,
  REFUND_REFUSALS,
  refundBody,
  refundResource,
  refundStateOf,
  stateOf,
  transaction,
} from './wechatpay-wire.ts'
import {
  decryptResource,
  jsapiPayParams,
  nonceStr,
  readSignedHeaders,
  requestAuthorization,
  verifyWechatpaySignature,
  type WechatpaySignedHeaders,
  type WechatpayVerifierKeys,
} from './wechatpay-crypto.ts'

/** A WeChat Pay merchant: who it is and the keys it signs, decrypts and verifies with (from the configuration). */
export interface WechatPayMerchant {
  mchid: string
  /** The AppID payments are made under (the Official Account's). */
  appId: string
  /** https://api.mch.weixin.qq.com, or the simulator's base. */
  apiBase: string
  privateKey: crypto.KeyObject
  /** The serial of the merchant API certificate (serial_no in the Authorization header). */
  serialNo: string
  apiV3Key: string
  /** Configured keys: the WeChat Pay public key and/or platform certificates (a fallback to downloaded ones). */
  verifier: WechatpayVerifierKeys
  /** Download the platform certificates (GET /v3/certificates), refresh them every 12 h and on an unknown serial. */
  downloadCertificates?: boolean
}

export interface WechatPayOptions extends WechatPayMerchant, ProviderTransport {
  /** Tests: the refresh period and the least time between two downloads. */
  certificateRefreshMs?: number
  certificateMinIntervalMs?: number
}

/** The WeChat Pay adapter, with its platform certificates for operators and tests. */
export interface WechatPayProvider extends PaymentProvider {
  readonly certificates: CertificateStore
  verifyPayment(n: IncomingNotification): Promise<VerifiedPayment>
  verifyRefund(n: IncomingNotification): Promise<VerifiedRefund>
}

/**
 * The WeChat Pay API v3 adapter: every request signed with the merchant key, every answer's signature checked
 * against the platform certificate or the WeChat Pay public key before it is believed.
 */
export function createWechatPay(options: WechatPayOptions): WechatPayProvider {
  const fetchImpl = options.fetch ?? globalThis.fetch
  const now = options.now ?? (() => new Date())
  const base = options.apiBase.replace(/\/$/, '')
  const certificates = createCertificateStore({
    apiV3Key: options.apiV3Key,
    configured: options.verifier,
    download: options.downloadCertificates
      ? async () => {
          const { res, answer } = await send('GET', '/v3/certificates')
          if (res.status !== 200) throw new ProviderError(null, `WeChat Pay /v3/certificates: HTTP ${res.status}`)
          return { headers: readSignedHeaders(Object.fromEntries(res.headers)), body: answer }
        }
      : null,
    now,
    refreshMs: options.certificateRefreshMs,
    minIntervalMs: options.certificateMinIntervalMs,
  })

  /**
   * Checks Wechatpay-* headers over a body. A serial we do not know (WeChat switched to a new platform
   * certificate) makes the store download the certificates first, at most once a minute.
   */
  async function verifySigned(headers: WechatpaySignedHeaders | null, body: string) {
    certificates.refreshIfDue()
    const first = verifyWechatpaySignature(certificates.keys(), headers, body, now())
    if (first.ok || !headers || first.reason !== 'bad_signature' || certificates.knows(headers.serial)) return first
    if (!(await certificates.refresh())) return first
    return verifyWechatpaySignature(certificates.keys(), headers, body, now())
  }

  /** One signed request; the answer as received, not yet verified. */
  async function send(method: 'GET' | 'POST', path: string, body?: unknown) {
    const { res, bytes } = await signedRequest(method, new URL(`${base}${path}`), body)
    return { res, answer: bytes.toString('utf8') }
  }

  /** A signed request to an address (an API path under the base, or a bill's download_url); the raw answer. */
  async function signedRequest(method: 'GET' | 'POST', url: URL, body?: unknown) {
    const text = body === undefined ? '' : JSON.stringify(body)
    const auth = requestAuthorization({
      mchid: options.mchid,
      serialNo: options.serialNo,
      privateKey: options.privateKey,
      method,
      // The signed URL is the path the server sees: the simulator may live under a prefix.
      url: `${url.pathname}${url.search}`,
      body: text,
      timestamp: Math.floor(now().getTime() / 1000),
      nonce: nonceStr(),
    })
    try {
      const res = await fetchImpl(url, {
        method,
        headers: {
          authorization: auth,
          accept: 'application/json',
          'user-agent': 'zixue-wechatpay/1',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : text,
        signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
      })
      return { res, bytes: Buffer.from(await res.arrayBuffer()) }
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'network error'
      throw new ProviderError(null, `${reason} calling WeChat Pay ${url.pathname}`)
    }
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const { res, answer } = await send(method, path, body)
    // Every answer is verified before it is believed, error answers included: WeChat Pay signs those too, and an
    // unsigned "ORDER_NOT_EXIST" or "NOT_ENOUGH" (from a proxy, or forged on the way) must not close an order or
    // fail a refund. An error answer that does not verify is an error without a code: the caller retries later.
    const verified = await verifySigned(readSignedHeaders(Object.fromEntries(res.headers)), answer)
    if (!verified.ok)
      throw new ProviderError(
        res.ok ? 'SIGN_ERROR' : null,
        `WeChat Pay answer to ${path} (HTTP ${res.status}) failed verification: ${verified.detail}`,
      )
    let json: unknown = null
    if (answer) {
      try {
        json = JSON.parse(answer)
      } catch {
        throw new ProviderError(null, `non-JSON answer from WeChat Pay ${path}`)
      }
    }
    if (res.status >= 400) {
      const e = errorBody.safeParse(json)
      throw new ProviderError(
        e.success ? e.data.code : null,
        `WeChat Pay ${path}: HTTP ${res.status} ${e.success ? e.data.message : ''}`.trim(),
      )
    }
    return { status: res.status, json }
  }

  function parse<T extends z.ZodType>(schema: T, json: unknown, what: string): z.output<T> {
    const r = schema.safeParse(json)
    if (!r.success) throw new ProviderError(null, `unexpected WeChat Pay answer to ${what}`)
    return r.data
  }

  async function decrypt(n: IncomingNotification, expectedType: string) {
    const verified = await verifySigned(readSignedHeaders(n.headers), n.body)
    if (!verified.ok) throw new NotificationError(verified.reason, verified.detail)
    let json: unknown
    try {
      json = JSON.parse(n.body)
    } catch {
      throw new NotificationError('bad_body', 'not JSON')
    }
    const body = notificationBody.safeParse(json)
    if (!body.success) throw new NotificationError('bad_body', 'not a WeChat Pay notification')
    if (body.data.resource.original_type && body.data.resource.original_type !== expectedType) {
      throw new NotificationError(
        'bad_body',
        `resource is a ${body.data.resource.original_type}, expected ${expectedType}`,
      )
    }
    let plain: string
    try {
      plain = decryptResource(body.data.resource, options.apiV3Key)
    } catch {
      throw new NotificationError('bad_body', 'resource does not decrypt with the APIv3 key')
    }
    try {
      return { id: body.data.id, eventType: body.data.event_type, resource: JSON.parse(plain) as unknown }
    } catch {
      throw new NotificationError('bad_body', 'decrypted resource is not JSON')
    }
  }

  return {
    name: 'wechat',
    appId: options.appId,
    mchId: options.mchid,
    certificates,

    async prepay(input: PrepayInput): Promise<PrepayResult> {
      const common = {
        appid: options.appId,
        mchid: options.mchid,
        description: input.description.slice(0, 127),
        out_trade_no: input.orderNo,
        time_expire: rfc3339Beijing(input.expiresAt),
        notify_url: input.notifyUrl,
        amount: { total: input.amountFen, currency: 'CNY' },
      }
      if (input.method === 'wechat_jsapi') {
        if (!input.openid) throw new ProviderError('PARAM_ERROR', 'JSAPI needs the payer openid')
        const { json } = await call('POST', '/v3/pay/transactions/jsapi', {
          ...common,
          payer: { openid: input.openid },
        })
        const { prepay_id } = parse(z.object({ prepay_id: z.string().min(1) }), json, 'jsapi prepay')
        return {
          jsapi: jsapiPayParams({
            appId: options.appId,
            prepayId: prepay_id,
            privateKey: options.privateKey,
            timestamp: Math.floor(now().getTime() / 1000),
            nonce: nonceStr(),
          }),
        }
      }
      if (input.method === 'wechat_h5') {
        const { json } = await call('POST', '/v3/pay/transactions/h5', {
          ...common,
          scene_info: { payer_client_ip: input.clientIp, h5_info: { type: 'Wap' } },
        })
        const { h5_url } = parse(z.object({ h5_url: z.string().min(1) }), json, 'h5 prepay')
        // WeChat sends the browser back to redirect_url when the payment page is done (paid or not).
        return { h5Url: `${h5_url}&redirect_url=${encodeURIComponent(input.returnUrl)}` }
      }
      if (input.method === 'wechat_native') {
        const { json } = await call('POST', '/v3/pay/transactions/native', common)
        return { codeUrl: parse(z.object({ code_url: z.string().min(1) }), json, 'native prepay').code_url }
      }
      throw new ProviderError('PARAM_ERROR', `${input.method} is not a WeChat Pay method`)
    },

    async query(orderNo) {
      try {
        const { json } = await call(
          'GET',
          `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${options.mchid}`,
        )
        const t = parse(transaction, json, 'order query')
        return {
          state: stateOf[t.trade_state] ?? 'not_paid',
          transactionId: t.transaction_id ?? null,
          amountFen: t.amount?.total ?? null,
          paidAt: t.success_time ? new Date(t.success_time) : null,
          appId: t.appid,
          mchId: t.mchid,
        }
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'ORDER_NOT_EXIST') {
          return { state: 'not_found', transactionId: null, amountFen: null, paidAt: null, appId: null, mchId: null }
        }
        throw err
      }
    },

    async close(orderNo) {
      try {
        await call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, {
          mchid: options.mchid,
        })
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'ORDER_NOT_EXIST') return
        throw err
      }
    },

    async refund(input: RefundInput): Promise<RefundResult> {
      let json: unknown
      try {
        json = (
          await call('POST', '/v3/refund/domestic/refunds', {
            out_trade_no: input.orderNo,
            out_refund_no: input.refundNo,
            reason: input.reason.slice(0, 80),
            notify_url: input.notifyUrl,
            amount: { refund: input.amountFen, total: input.totalFen, currency: 'CNY' },
          })
        ).json
      } catch (err) {
        if (err instanceof ProviderError && err.code !== null && REFUND_REFUSALS.has(err.code))
          return { state: 'failed', providerRefundId: null, detail: `${err.code}: ${err.message}` }
        throw err
      }
      const r = parse(refundBody, json, 'refund')
      const state = refundStateOf[r.status] ?? 'processing'
      return { state, providerRefundId: r.refund_id, detail: state === 'failed' ? `refund ${r.status}` : undefined }
    },

    async queryRefund(input): Promise<ProviderRefundStatus> {
      try {
        const { json } = await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(input.refundNo)}`)
        const r = parse(refundBody, json, 'refund query')
        const state = refundStateOf[r.status] ?? 'processing'
        return {
          state,
          providerRefundId: r.refund_id,
          amountFen: r.amount?.refund ?? null,
          detail: state === 'failed' ? `refund ${r.status}` : undefined,
        }
      } catch (err) {
        if (err instanceof ProviderError && err.code === 'RESOURCE_NOT_EXISTS')
          return { state: 'not_found', providerRefundId: null, amountFen: null }
        throw err
      }
    },

    tradeBill: (date) =>
      fetchWechatTradeBill(date, {
        call: (path) => call('GET', path),
        download: async (url) => {
          const { res, bytes } = await signedRequest('GET', new URL(url))
          return { status: res.status, bytes }
        },
      }),

    async verifyPayment(n): Promise<VerifiedPayment> {
      const { id, resource } = await decrypt(n, 'transaction')
      const t = transaction.safeParse(resource)
      if (!t.success || !t.data.transaction_id || t.data.amount?.total === undefined) {
        throw new NotificationError('bad_body', 'decrypted transaction lacks fields')
      }
      return {
        notificationId: id,
        orderNo: t.data.out_trade_no,
        success: t.data.trade_state === 'SUCCESS',
        transactionId: t.data.transaction_id,
        amountFen: t.data.amount.total,
        appId: t.data.appid,
        mchId: t.data.mchid,
        paidAt: t.data.success_time ? new Date(t.data.success_time) : now(),
      }
    },

    async verifyRefund(n): Promise<VerifiedRefund> {
      const { id, resource } = await decrypt(n, 'refund')
      const r = refundResource.safeParse(resource)
      if (!r.success) throw new NotificationError('bad_body', 'decrypted refund lacks fields')
      if (r.data.mchid !== options.mchid) throw new NotificationError('bad_body', 'refund of another merchant')
      return {
        notificationId: id,
        orderNo: r.data.out_trade_no,
        refundNo: r.data.out_refund_no,
        providerRefundId: r.data.refund_id,
        state: refundStateOf[r.data.refund_status] ?? 'processing',
        amountFen: r.data.amount.refund,
      }
    },
  }
}
