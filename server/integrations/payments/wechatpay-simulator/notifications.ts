import crypto from 'node:crypto'
import { rfc3339Beijing } from '#shared/time.ts'
import { encryptResource } from '../wechatpay-crypto.ts'
import { aesNonce, type SimContext, type SimRefund, type SimTrade } from './context.ts'
import { signed } from './signing.ts'

// What WeChat Pay posts to notify_url: the resource encrypted with the APIv3 key in a signed envelope, and the
// transaction as its query API shows it.

/** A trade as GET /v3/pay/transactions/out-trade-no/{no} answers it (and as a payment notification carries it). */
export function transactionJson(t: SimTrade) {
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

function envelope(
  ctx: SimContext,
  id: string,
  eventType: string,
  summary: string,
  originalType: string,
  resource: unknown,
) {
  return JSON.stringify({
    id,
    create_time: rfc3339Beijing(ctx.options.now()),
    resource_type: 'encrypt-resource',
    event_type: eventType,
    summary,
    resource: encryptResource(JSON.stringify(resource), ctx.options.apiV3Key, aesNonce(), originalType, originalType),
  })
}

/** TRANSACTION.SUCCESS for a trade, signed and encrypted (tests replay and tamper with it through `overrides`). */
export function paymentNotification(
  ctx: SimContext,
  t: SimTrade,
  overrides: { id?: string; transaction?: Record<string, unknown>; timestamp?: number } = {},
) {
  const body = envelope(ctx, overrides.id ?? crypto.randomUUID(), 'TRANSACTION.SUCCESS', '支付成功', 'transaction', {
    ...transactionJson(t),
    ...overrides.transaction,
  })
  const headers = signed(ctx, body, overrides.timestamp ?? Math.floor(ctx.options.now().getTime() / 1000))
  return { headers: { ...headers, 'content-type': 'application/json' }, body }
}

/** REFUND.SUCCESS or REFUND.ABNORMAL for a refund, signed and encrypted. */
export function refundNotification(ctx: SimContext, r: SimRefund, overrides: { id?: string } = {}) {
  const t = ctx.trades.get(r.outTradeNo)!
  const body = envelope(
    ctx,
    overrides.id ?? crypto.randomUUID(),
    r.status === 'SUCCESS' ? 'REFUND.SUCCESS' : 'REFUND.ABNORMAL',
    '退款成功',
    'refund',
    {
      mchid: ctx.options.mchid,
      out_trade_no: r.outTradeNo,
      transaction_id: t.transactionId,
      out_refund_no: r.outRefundNo,
      refund_id: r.refundId,
      refund_status: r.status,
      success_time: rfc3339Beijing(ctx.options.now()),
      user_received_account: '支付用户零钱',
      amount: { total: t.total, refund: r.amount, payer_total: t.total, payer_refund: r.amount },
    },
  )
  return { headers: { ...signed(ctx, body), 'content-type': 'application/json' }, body }
}

const accepted = (status: number) => status === 200 || status === 204

/** Sends a notification; the body (and its id) stays the same across retries, the signature is made per attempt. */
export function deliver(ctx: SimContext, url: string, make: () => { headers: Record<string, string>; body: string }) {
  const first = make()
  const id = (JSON.parse(first.body) as { id: string }).id
  return ctx.notifier.send(
    id,
    url,
    () => ({ headers: { ...signed(ctx, first.body), 'content-type': 'application/json' }, body: first.body }),
    accepted,
  )
}
