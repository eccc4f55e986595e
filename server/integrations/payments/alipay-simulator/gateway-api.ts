import { fenToYuan, yuanToFen } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import type { AlipayFaults, AlipaySimTrade } from './trade.ts'

// The Alipay gateway's API methods the adapter calls (query, close, refund, refund query), as the simulator
// answers them: the content of `<method>_response` (../alipay-simulator.ts signs and sends it).

/** The bill download address (answered by ./bills.ts). */
export const BILL_METHOD = 'alipay.data.dataservice.bill.downloadurl.query'

/** Every API method the simulated gateway knows; any other is answered under error_response. */
export const GATEWAY_METHODS = new Set([
  'alipay.trade.query',
  'alipay.trade.close',
  'alipay.trade.refund',
  'alipay.trade.fastpay.refund.query',
  BILL_METHOD,
])

const ok = (extra: Record<string, unknown>) => ({ code: '10000', msg: 'Success', ...extra })
/** An error answer: Alipay's public code and message, then the detailed sub code and message. */
const failure = (code: string, msg: string) => (subCode: string, subMsg: string) => ({
  code,
  msg,
  sub_code: subCode,
  sub_msg: subMsg,
})
const business = failure('40004', 'Business Failed')
const invalidArguments = failure('40002', 'Invalid Arguments')

/**
 * The answer to one API call on trade `t` (undefined: no such trade) with its biz_content `b`; refunds are
 * recorded on the trade. The caller has checked the app, the signature and the timestamp.
 */
export function gatewayMethod(
  method: string,
  t: AlipaySimTrade | undefined,
  b: Record<string, unknown> | null,
  env: { faults: AlipayFaults; now: () => Date },
): Record<string, unknown> {
  if (method === 'alipay.trade.query') {
    if (!t) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    return ok({
      trade_no: t.tradeNo,
      out_trade_no: t.outTradeNo,
      buyer_logon_id: '159****5620',
      trade_status: t.status,
      total_amount: fenToYuan(t.total),
      buyer_pay_amount: t.gmtPayment ? fenToYuan(t.total) : '0.00',
      send_pay_date: t.gmtPayment ? beijingDateTime(t.gmtPayment) : undefined,
      buyer_user_id: '2088102177846880',
    })
  }
  if (method === 'alipay.trade.close') {
    if (!t) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    if (t.status !== 'WAIT_BUYER_PAY' && t.status !== 'TRADE_CLOSED')
      return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    t.status = 'TRADE_CLOSED'
    return ok({ trade_no: t.tradeNo, out_trade_no: t.outTradeNo })
  }
  if (method === 'alipay.trade.refund') {
    const amount = yuanToFen(typeof b?.refund_amount === 'string' ? b.refund_amount : undefined)
    const requestNo = typeof b?.out_request_no === 'string' && b.out_request_no ? b.out_request_no : t?.outTradeNo
    if (!t) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    if (amount === null || amount < 1 || !requestNo) return invalidArguments('isv.invalid-parameter', '参数无效')
    const done = { trade_no: t.tradeNo, out_trade_no: t.outTradeNo }
    if (t.refunds.has(requestNo)) {
      // The same out_request_no again: Alipay answers success without moving money a second time.
      return ok({ ...done, fund_change: 'N', refund_fee: fenToYuan(t.refunded) })
    }
    if (t.status === 'WAIT_BUYER_PAY' || (t.status === 'TRADE_CLOSED' && t.refunded === 0))
      return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法')
    if (env.faults.refundError) return business(env.faults.refundError.subCode, env.faults.refundError.subMsg)
    const pending = [...t.refunds.values()].filter((r) => !r.done).reduce((sum, r) => sum + r.amount, 0)
    if (amount > t.total - t.refunded - pending) return business('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限')
    const mode = env.faults.refundWithoutFundChange
    t.refunds.set(requestNo, { amount, done: false, at: env.now() })
    if (mode !== 'pending') settleRefund(t, requestNo, env.now())
    return ok({
      ...done,
      fund_change: mode === null ? 'Y' : 'N',
      refund_fee: fenToYuan(t.refunded),
      gmt_refund_pay: mode === null ? beijingDateTime(env.now()) : undefined,
    })
  }
  if (method === 'alipay.trade.fastpay.refund.query') {
    const requestNo = typeof b?.out_request_no === 'string' ? b.out_request_no : ''
    if (!t) return business('ACQ.TRADE_NOT_EXIST', '交易不存在')
    if (!requestNo) return invalidArguments('isv.missing-parameter', '缺少 out_request_no')
    const r = t.refunds.get(requestNo)
    // A refund Alipay never made (or not yet): a success answer without the refund in it.
    if (!r?.done) return ok({ trade_no: t.tradeNo, out_trade_no: t.outTradeNo })
    return ok({
      trade_no: t.tradeNo,
      out_trade_no: t.outTradeNo,
      out_request_no: requestNo,
      total_amount: fenToYuan(t.total),
      refund_amount: fenToYuan(r.amount),
      refund_status: 'REFUND_SUCCESS',
    })
  }
  return business('isv.invalid-method', '不存在的方法名')
}

/** Makes a refund the gateway took (pending) done: the money goes back now. */
export function settleRefund(t: AlipaySimTrade, requestNo: string, at: Date) {
  const r = t.refunds.get(requestNo)
  if (!r || r.done) return
  r.done = true
  r.at = at
  t.refunded += r.amount
  if (t.refunded === t.total) t.status = 'TRADE_CLOSED'
}
