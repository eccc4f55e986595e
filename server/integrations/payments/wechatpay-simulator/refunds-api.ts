import type { FastifyInstance } from 'fastify'
import { rfc3339Beijing } from '#shared/time.ts'
import { digits, type SimContext, type SimRefund } from './context.ts'
import { deliver, refundNotification } from './notifications.ts'
import { checkRequest, fail, send } from './signing.ts'

// The merchant API for refunds: create (or repeat, same out_refund_no) and query; refunds complete after a delay.

/** A refund as the refund API answers it. */
function refundJson(ctx: SimContext, r: SimRefund) {
  const t = ctx.trades.get(r.outTradeNo)!
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

/** Completes a PROCESSING refund now (as `faults.refundOutcome` says) and notifies. */
export function completeRefund(ctx: SimContext, outRefundNo: string) {
  const r = ctx.refunds.get(outRefundNo)
  if (!r || r.status !== 'PROCESSING') return
  r.status = ctx.faults.refundOutcome
  if (r.status === 'SUCCESS') {
    r.successTime = ctx.options.now()
    const t = ctx.trades.get(r.outTradeNo)!
    t.refunded += r.amount
    t.state = 'REFUND'
  }
  if (r.notifyUrl && !ctx.faults.silentRefunds) deliver(ctx, r.notifyUrl, () => refundNotification(ctx, r))
}

export function refundRoutes(app: FastifyInstance, ctx: SimContext) {
  const { options, refunds, faults } = ctx

  app.post('/v3/refund/domestic/refunds', { schema: { hide: true } }, async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : ''
    const bad = checkRequest(ctx, request, raw)
    if (bad) return fail(ctx, reply, ...bad)
    let b: {
      out_trade_no?: string
      out_refund_no?: string
      notify_url?: string
      amount?: { refund?: number; total?: number }
    }
    try {
      b = JSON.parse(raw) as typeof b
    } catch {
      return fail(ctx, reply, 400, 'PARAM_ERROR', '请求体不是合法的 JSON')
    }
    if (
      !b.out_refund_no ||
      !b.out_trade_no ||
      !Number.isInteger(b.amount?.refund) ||
      !Number.isInteger(b.amount?.total)
    ) {
      return fail(ctx, reply, 400, 'PARAM_ERROR', '缺少 out_trade_no、out_refund_no 或 amount')
    }
    const existing = refunds.get(b.out_refund_no)
    const t = ctx.trades.get(b.out_trade_no)
    if (!t || (t.state !== 'SUCCESS' && t.state !== 'REFUND'))
      return fail(ctx, reply, 404, 'RESOURCE_NOT_EXISTS', '订单不存在或未支付')
    if (!existing && faults.refundError)
      return fail(ctx, reply, faults.refundError.status, faults.refundError.code, faults.refundError.message)
    if (!existing) {
      if (b.amount!.total !== t.total) return fail(ctx, reply, 400, 'PARAM_ERROR', '订单金额与原订单不一致')
      const processing = [...refunds.values()]
        .filter((r) => r.outTradeNo === t.outTradeNo && r.status === 'PROCESSING')
        .reduce((s, r) => s + r.amount, 0)
      if (b.amount!.refund! < 1 || b.amount!.refund! > t.total - t.refunded - processing)
        return fail(ctx, reply, 403, 'NOT_ENOUGH', '可退款金额不足')
    }
    const r: SimRefund = existing ?? {
      outRefundNo: b.out_refund_no,
      refundId: `50${digits(27)}`,
      outTradeNo: t.outTradeNo,
      amount: b.amount!.refund!,
      status: 'PROCESSING',
      notifyUrl: typeof b.notify_url === 'string' ? b.notify_url : null,
      createdAt: options.now(),
      successTime: null,
    }
    if (!existing) {
      refunds.set(r.outRefundNo, r)
      const timer = setTimeout(() => {
        ctx.timers.delete(timer)
        completeRefund(ctx, r.outRefundNo)
      }, options.refundDelayMs ?? 50)
      timer.unref()
      ctx.timers.add(timer)
    }
    if (faults.loseRefundAnswers) return fail(ctx, reply, 500, 'SYSTEM_ERROR', '系统繁忙，请稍后重试')
    return send(ctx, reply, 200, refundJson(ctx, r))
  })

  app.get<{ Params: { no: string } }>(
    '/v3/refund/domestic/refunds/:no',
    { schema: { hide: true } },
    async (request, reply) => {
      const bad = checkRequest(ctx, request, '')
      if (bad) return fail(ctx, reply, ...bad)
      const r = refunds.get(request.params.no)
      if (!r) return fail(ctx, reply, 404, 'RESOURCE_NOT_EXISTS', '退款单不存在')
      return send(ctx, reply, 200, refundJson(ctx, r))
    },
  )
}
