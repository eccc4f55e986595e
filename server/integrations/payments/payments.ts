import type { JsapiPayParams } from './wechatpay-crypto.ts'

/**
 * What the order and payment services need from a payment provider (WeChat Pay v3, Alipay), whatever its wire
 * format. The real adapters speak to the provider's configured base URL, which is the local simulator in tests and
 * in the demo.
 */

export type ProviderName = 'wechat' | 'alipay'
export type ProviderPayMethod = 'wechat_jsapi' | 'wechat_h5' | 'wechat_native' | 'alipay_wap'

export interface PrepayInput {
  method: ProviderPayMethod
  /** out_trade_no. */
  orderNo: string
  description: string
  amountFen: number
  expiresAt: Date
  notifyUrl: string
  /** Where the browser comes back after paying (H5 redirect_url, Alipay return_url). */
  returnUrl: string
  /** Where Alipay's "back" button goes. */
  quitUrl: string
  /** JSAPI: the member's openid for our AppID. */
  openid?: string | null
  /** H5: the payer's IP (scene_info.payer_client_ip). */
  clientIp: string
  /**
   * Alipay WAP only: pay in Huabei instalments (花呗分期), `periods` 3, 6 or 12, the seller bearing `sellerPercent`
   * (100 or 0) of the fee; sent as extend_params.hb_fq_num / hb_fq_seller_percent.
   */
  huabei?: { periods: number; sellerPercent: number } | null
}

/** Exactly one of these is set, by method. */
export interface PrepayResult {
  jsapi?: JsapiPayParams
  h5Url?: string
  codeUrl?: string
  redirectUrl?: string
}

type ProviderTradeState = 'paid' | 'not_paid' | 'closed' | 'refunded' | 'not_found'

/** A payment as the provider sees it (order query). */
export interface ProviderTrade {
  state: ProviderTradeState
  transactionId: string | null
  amountFen: number | null
  paidAt: Date | null
  appId: string | null
  mchId: string | null
}

export interface RefundInput {
  orderNo: string
  refundNo: string
  amountFen: number
  /** The whole payment. */
  totalFen: number
  reason: string
  notifyUrl: string
}

export interface RefundResult {
  state: 'processing' | 'succeeded' | 'failed'
  providerRefundId: string | null
  detail?: string
}

/** A refund as the provider sees it (refund query); `not_found`: the provider never got it, so it can be sent again. */
export interface ProviderRefundStatus {
  state: 'processing' | 'succeeded' | 'failed' | 'not_found'
  providerRefundId: string | null
  /** What the provider refunded, to compare with ours; null when it does not say. */
  amountFen: number | null
  detail?: string
}

/** A payment notification whose signature (and, for WeChat, decryption) checked out. */
export interface VerifiedPayment {
  notificationId: string
  orderNo: string
  /** Only a success moves an order; anything else is logged. */
  success: boolean
  transactionId: string
  amountFen: number
  appId: string
  mchId: string
  paidAt: Date
}

export interface VerifiedRefund {
  notificationId: string
  orderNo: string
  refundNo: string
  providerRefundId: string
  state: 'succeeded' | 'failed' | 'processing'
  amountFen: number
}

/** A payment in a provider's trade bill. */
export interface BillPayment {
  orderNo: string
  transactionId: string
  amountFen: number
  /** When the provider says it was paid. */
  at: Date | null
}

/** A refund in a provider's trade bill. */
export interface BillRefund {
  orderNo: string
  /** out_refund_no / out_request_no: our refund number. */
  refundNo: string
  amountFen: number
  /** Done (WeChat Pay's 退款状态 SUCCESS; every refund row of Alipay's bill), or still under way. */
  succeeded: boolean
  at: Date | null
}

/** A provider's trade bill of one Beijing day: the payments and the refunds it says happened that day. */
export interface ProviderBill {
  /** yyyy-MM-dd, Beijing. */
  date: string
  payments: BillPayment[]
  refunds: BillRefund[]
}

export type NotificationFailure = 'bad_signature' | 'bad_timestamp' | 'bad_body'

/** A notification that cannot be trusted or read: refused, logged, nothing changed. */
export class NotificationError extends Error {
  readonly outcome: NotificationFailure
  constructor(outcome: NotificationFailure, detail: string) {
    super(detail)
    this.name = 'NotificationError'
    this.outcome = outcome
  }
}

/** The provider failed or refused; `code` is its error code when it said one (ORDER_NOT_EXIST, ACQ.TRADE_NOT_EXIST…). */
export class ProviderError extends Error {
  readonly code: string | null
  constructor(code: string | null, message: string) {
    super(message)
    this.name = 'ProviderError'
    this.code = code
  }
}

export interface IncomingNotification {
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface PaymentProvider {
  readonly name: ProviderName
  /** The merchant ids a notification must carry. */
  readonly appId: string
  readonly mchId: string
  prepay(input: PrepayInput): Promise<PrepayResult>
  query(orderNo: string): Promise<ProviderTrade>
  /** Closes an unpaid trade; a trade the provider never saw is fine. */
  close(orderNo: string): Promise<void>
  /** Sending the same refund number again is safe: the provider answers with that refund's state. */
  refund(input: RefundInput): Promise<RefundResult>
  /** How a refund sent earlier stands (WeChat Pay GET /v3/refund/domestic/refunds/{no}, alipay.trade.fastpay.refund.query). */
  queryRefund(input: { orderNo: string; refundNo: string }): Promise<ProviderRefundStatus>
  /**
   * The trade bill of one Beijing day (yyyy-MM-dd: WeChat Pay GET /v3/bill/tradebill and its download, Alipay
   * alipay.data.dataservice.bill.downloadurl.query and its file); a ProviderError when it is not available (yet).
   */
  tradeBill(date: string): Promise<ProviderBill>
  /** May fetch (WeChat Pay: platform certificates, on an unknown serial), hence possibly a promise. */
  verifyPayment(n: IncomingNotification): VerifiedPayment | Promise<VerifiedPayment>
  /** Providers whose refunds complete in the API answer (Alipay) have no refund notification. */
  verifyRefund?(n: IncomingNotification): VerifiedRefund | Promise<VerifiedRefund>
}

/** How an adapter reaches its provider: the fetch (tests route it in process), the clock and the request timeout. */
export interface ProviderTransport {
  fetch?: typeof globalThis.fetch
  now?: () => Date
  timeoutMs?: number
}

export interface PaymentProviders {
  wechat: PaymentProvider
  alipay: PaymentProvider
}

export function providerOf(method: string): ProviderName | null {
  if (method.startsWith('wechat_')) return 'wechat'
  if (method === 'alipay_wap') return 'alipay'
  return null
}
