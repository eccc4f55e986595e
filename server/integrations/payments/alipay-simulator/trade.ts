import crypto from 'node:crypto'

// A trade as the Alipay simulator (../alipay-simulator.ts) holds it in memory.

type TradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED'

export interface AlipaySimTrade {
  outTradeNo: string
  tradeNo: string
  subject: string
  total: number
  notifyUrl: string | null
  returnUrl: string | null
  quitUrl: string | null
  timeExpire: Date | null
  token: string
  status: TradeStatus
  gmtPayment: Date | null
  /** What was refunded (refunds done). */
  refunded: number
  /** Refunds by out_request_no. */
  refunds: Map<string, AlipaySimRefund>
  /** Huabei instalments (花呗分期) the request asked for (extend_params), or null: the cashier shows them. */
  huabei?: { periods: number; sellerPercent: number } | null
}

/**
 * extend_params of an alipay.trade.wap.pay request, as the gateway checks them: hb_fq_num only 3, 6 or 12 and
 * hb_fq_seller_percent only 100 or 0, both given (strings); `huabei` null without them; `error` for a bad pair.
 */
export function huabeiOf(extend: unknown): { huabei: AlipaySimTrade['huabei']; error?: string } {
  const e = (extend && typeof extend === 'object' ? extend : {}) as Record<string, unknown>
  if (e.hb_fq_num === undefined && e.hb_fq_seller_percent === undefined) return { huabei: null }
  if (!['3', '6', '12'].includes(String(e.hb_fq_num)))
    return { huabei: null, error: '花呗分期数 hb_fq_num 仅支持 3、6、12' }
  if (!['0', '100'].includes(String(e.hb_fq_seller_percent)))
    return { huabei: null, error: '卖家承担手续费比例 hb_fq_seller_percent 仅支持 100、0' }
  return { huabei: { periods: Number(e.hb_fq_num), sellerPercent: Number(e.hb_fq_seller_percent) } }
}

/** How the cashier names the way of paying: Huabei with its periods and who bears the fee (else its default). */
export function payWayOf(t: AlipaySimTrade) {
  if (!t.huabei) return undefined
  return `花呗分期 ${t.huabei.periods} 期 · 手续费由${t.huabei.sellerPercent === 100 ? '商家' : '买家'}承担`
}

/** A refund the gateway took: done (money back) or, with `faults.refundWithoutFundChange: 'pending'`, not yet. */
interface AlipaySimRefund {
  amount: number
  done: boolean
  /** When it was done (or taken, while pending). */
  at: Date
}

/** Test controls; the demo never changes them. */
export interface AlipayFaults {
  /** Refuse new refunds with this business error (e.g. ACQ.SELLER_BALANCE_NOT_ENOUGH). */
  refundError: { subCode: string; subMsg: string } | null
  /**
   * Answer new refunds with fund_change=N (code 10000): `done`, the refund was made anyway (the refund query says
   * REFUND_SUCCESS); `pending`, it was not made yet (the query says nothing of it until `settleRefund`).
   */
  refundWithoutFundChange: 'done' | 'pending' | null
  /** Refuse bill download addresses with this business error (a bill Alipay has not made). */
  billError: { subCode: string; subMsg: string } | null
}

/** `n` random decimal digits (trade numbers). */
export function digits(n: number) {
  let s = ''
  for (let i = 0; i < n; i++) s += crypto.randomInt(0, 10)
  return s
}
