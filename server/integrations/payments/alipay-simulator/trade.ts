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
