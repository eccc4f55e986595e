import crypto from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { digits, expireIfDue, type SimContext, type SimTrade } from './context.ts'
import { deliver, paymentNotification, transactionJson } from './notifications.ts'
import { checkRequest, fail, send } from './signing.ts'

// The merchant API for payments: prepay (JSAPI, H5, Native), query and close a trade; and paying one.

/** What prepay answers for a trade: the prepay_id (JSAPI), or where the payer's browser goes (H5, Native). */
function answerFor(ctx: SimContext, t: SimTrade) {
  const base = ctx.options.publicBase()
  if (t.tradeType === 'JSAPI') return { prepay_id: t.prepayId }
  if (t.tradeType === 'MWEB') return { h5_url: `${base}/checkmweb?prepay_id=${t.prepayId}&package=${t.code}` }
  // WeChat's code_url is weixin://wxpay/bizpayurl?pr=…, which only WeChat can open; the simulator's opens its cashier.
  return { code_url: `${base}/scan?pr=${t.code}` }
}

/** Pays a held trade as if the member pressed "确认支付", and delivers its notification. */
export function payTrade(ctx: SimContext, outTradeNo: string) {
  const t = ctx.trades.get(outTradeNo)
  if (!t) throw new Error(`no trade ${outTradeNo}`)
  expireIfDue(ctx, t)
  if (t.state !== 'NOTPAY') throw new Error(`trade ${outTradeNo} is ${t.state}`)
  t.state = 'SUCCESS'
  t.transactionId = `4200${digits(24)}`
  t.successTime = ctx.options.now()
  return deliver(ctx, t.notifyUrl, () => paymentNotification(ctx, t))
}

/** POST /v3/pay/transactions/{jsapi,h5,native}: a new trade, or the same answer again for the same parameters. */
function prepay(ctx: SimContext, tradeType: SimTrade['tradeType']) {
  const { options } = ctx
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = typeof request.body === 'string' ? request.body : ''
    const bad = checkRequest(ctx, request, raw)
    if (bad) return fail(ctx, reply, ...bad)
    let b: Record<string, unknown>
    try {
      b = JSON.parse(raw) as Record<string, unknown>
    } catch {
      return fail(ctx, reply, 400, 'PARAM_ERROR', '请求体不是合法的 JSON')
    }
    const amount = b.amount as { total?: unknown; currency?: unknown } | undefined
    const payer = b.payer as { openid?: unknown } | undefined
    const scene = b.scene_info as { payer_client_ip?: unknown; h5_info?: { type?: unknown } } | undefined
    const missing = ['appid', 'mchid', 'description', 'out_trade_no', 'notify_url'].find(
      (k) => typeof b[k] !== 'string' || !b[k],
    )
    if (missing)
      return fail(ctx, reply, 400, 'PARAM_ERROR', `输入源“/body/${missing}”映射到值字段“${missing}”字符串规则校验失败`)
    if (b.mchid !== options.mchid) return fail(ctx, reply, 400, 'PARAM_ERROR', 'mchid 与请求头不一致')
    if (!Number.isInteger(amount?.total) || (amount!.total as number) < 1)
      return fail(ctx, reply, 400, 'PARAM_ERROR', '订单金额必须为大于 0 的整数（分）')
    if (!/^[\w*|-]{6,32}$/.test(String(b.out_trade_no)))
      return fail(ctx, reply, 400, 'PARAM_ERROR', 'out_trade_no 格式不正确')
    if (!/^https?:\/\//.test(String(b.notify_url)))
      return fail(ctx, reply, 400, 'PARAM_ERROR', 'notify_url 必须是 http(s) 地址')
    if (tradeType === 'JSAPI' && (typeof payer?.openid !== 'string' || !payer.openid))
      return fail(ctx, reply, 400, 'PARAM_ERROR', 'JSAPI 下单必须传 payer.openid')
    if (tradeType === 'MWEB' && (typeof scene?.payer_client_ip !== 'string' || !scene.h5_info?.type)) {
      return fail(ctx, reply, 400, 'PARAM_ERROR', 'H5 下单必须传 scene_info.payer_client_ip 和 h5_info')
    }
    const outTradeNo = String(b.out_trade_no)
    const timeExpire =
      typeof b.time_expire === 'string' ? new Date(b.time_expire) : new Date(options.now().getTime() + 2 * 3600_000)
    const existing = ctx.trades.get(outTradeNo)
    if (existing) {
      expireIfDue(ctx, existing)
      if (existing.state === 'SUCCESS' || existing.state === 'REFUND')
        return fail(ctx, reply, 400, 'ORDERPAID', '该订单已支付')
      if (existing.state === 'CLOSED') return fail(ctx, reply, 400, 'ORDER_CLOSED', '订单已关闭')
      if (
        existing.tradeType !== tradeType ||
        existing.total !== amount!.total ||
        existing.description !== b.description
      ) {
        return fail(ctx, reply, 400, 'INVALID_REQUEST', '201 商户订单号重复')
      }
      return send(ctx, reply, 200, answerFor(ctx, existing))
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
    ctx.trades.set(outTradeNo, t)
    ctx.byPrepay.set(t.prepayId, t)
    ctx.byCode.set(t.code, t)
    return send(ctx, reply, 200, answerFor(ctx, t))
  }
}

export function transactionRoutes(app: FastifyInstance, ctx: SimContext) {
  app.post('/v3/pay/transactions/jsapi', { schema: { hide: true } }, prepay(ctx, 'JSAPI'))
  app.post('/v3/pay/transactions/h5', { schema: { hide: true } }, prepay(ctx, 'MWEB'))
  app.post('/v3/pay/transactions/native', { schema: { hide: true } }, prepay(ctx, 'NATIVE'))

  app.get<{ Params: { no: string }; Querystring: { mchid?: string } }>(
    '/v3/pay/transactions/out-trade-no/:no',
    { schema: { hide: true } },
    async (request, reply) => {
      const bad = checkRequest(ctx, request, '')
      if (bad) return fail(ctx, reply, ...bad)
      if (request.query.mchid !== ctx.options.mchid) return fail(ctx, reply, 400, 'PARAM_ERROR', 'mchid 不正确')
      const t = ctx.trades.get(request.params.no)
      if (!t) return fail(ctx, reply, 404, 'ORDER_NOT_EXIST', '订单不存在')
      expireIfDue(ctx, t)
      return send(ctx, reply, 200, transactionJson(t))
    },
  )

  app.post<{ Params: { no: string } }>(
    '/v3/pay/transactions/out-trade-no/:no/close',
    { schema: { hide: true } },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : ''
      const bad = checkRequest(ctx, request, raw)
      if (bad) return fail(ctx, reply, ...bad)
      const t = ctx.trades.get(request.params.no)
      if (!t) return fail(ctx, reply, 404, 'ORDER_NOT_EXIST', '订单不存在')
      if (t.state === 'SUCCESS' || t.state === 'REFUND')
        return fail(ctx, reply, 400, 'ORDERPAID', '订单已支付，不能关闭')
      t.state = 'CLOSED'
      return send(ctx, reply, 204)
    },
  )
}
