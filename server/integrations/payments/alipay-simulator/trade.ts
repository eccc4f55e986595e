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
  refunded: number
  refunds: Map<string, number>
}

/** Test controls; the demo never changes them. */
export interface AlipayFaults {
  /** Refuse new refunds with this business error (e.g. ACQ.SELLER_BALANCE_NOT_ENOUGH). */
  refundError: { subCode: string; subMsg: string } | null
}

/** `n` random decimal digits (trade numbers). */
export function digits(n: number) {
  let s = ''
  for (let i = 0; i < n; i++) s += crypto.randomInt(0, 10)
  return s
}
