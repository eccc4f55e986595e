import crypto from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { fenToYuan } from '#shared/money.ts'
import { beijingDate, beijingDateTime } from '#shared/time.ts'
import { WECHAT_BILL_COLUMNS, WECHAT_BILL_SUMMARY } from '../wechatpay-bill.ts'
import type { SimContext } from './context.ts'
import { checkRequest, fail, send } from './signing.ts'

// The trade bill API: GET /v3/bill/tradebill answers (signed) the address and SHA1 hash of a file made from the
// trades and refunds the simulator holds; GET /v3/billdownload/file (a signed request too) answers the file,
// unsigned, as WeChat Pay does. ../wechatpay-bill.ts describes the file and what is not confirmed about it.

const DOWNLOAD_TTL_MS = 5 * 60_000

type Column = (typeof WECHAT_BILL_COLUMNS)[number]

/** The ALL bill of `date` (Beijing): payments that succeeded and refunds that succeeded that day. */
function billFile(ctx: SimContext, date: string) {
  const lines: string[] = []
  let paid = 0
  let refunded = 0
  const row = (values: Partial<Record<Column, string>>) =>
    lines.push(WECHAT_BILL_COLUMNS.map((c) => `\`${values[c] ?? ''}`).join(','))
  for (const t of ctx.trades.values()) {
    if (!t.successTime || !t.transactionId || beijingDate(t.successTime) !== date) continue
    paid += t.total
    row({
      交易时间: beijingDateTime(t.successTime),
      公众账号ID: t.appid,
      商户号: t.mchid,
      微信订单号: t.transactionId,
      商户订单号: t.outTradeNo,
      交易类型: t.tradeType,
      交易状态: 'SUCCESS',
      付款银行: 'OTHERS',
      货币种类: 'CNY',
      应结订单金额: fenToYuan(t.total),
      代金券金额: '0.00',
      退款金额: '0.00',
      申请退款金额: '0.00',
      商品名称: t.description,
      订单金额: fenToYuan(t.total),
    })
  }
  for (const r of ctx.refunds.values()) {
    if (r.status !== 'SUCCESS' || !r.successTime || beijingDate(r.successTime) !== date) continue
    const t = ctx.trades.get(r.outTradeNo)!
    refunded += r.amount
    row({
      交易时间: beijingDateTime(r.successTime),
      公众账号ID: t.appid,
      商户号: t.mchid,
      微信订单号: t.transactionId ?? '',
      商户订单号: t.outTradeNo,
      交易类型: t.tradeType,
      交易状态: 'REFUND',
      货币种类: 'CNY',
      应结订单金额: '0.00',
      微信退款单号: r.refundId,
      商户退款单号: r.outRefundNo,
      退款金额: fenToYuan(r.amount),
      退款类型: 'ORIGINAL',
      退款状态: 'SUCCESS',
      商品名称: t.description,
      订单金额: '0.00',
      申请退款金额: fenToYuan(r.amount),
    })
  }
  const summary = [lines.length, fenToYuan(paid), fenToYuan(refunded), '0.00', '0.00', fenToYuan(paid)]
  return {
    rows: lines.length,
    file: Buffer.from(
      [
        WECHAT_BILL_COLUMNS.join(','),
        ...lines,
        WECHAT_BILL_SUMMARY.join(','),
        [...summary, fenToYuan(refunded)].map((v) => `\`${v}`).join(','),
        '',
      ].join('\r\n'),
      'utf8',
    ),
  }
}

export function billRoutes(app: FastifyInstance, ctx: SimContext) {
  app.get<{ Querystring: { bill_date?: string; bill_type?: string; tar_type?: string } }>(
    '/v3/bill/tradebill',
    { schema: { hide: true } },
    async (request, reply) => {
      const bad = checkRequest(ctx, request, '')
      if (bad) return fail(ctx, reply, ...bad)
      const { bill_date: date = '', bill_type: type = 'ALL', tar_type: tar } = request.query
      if (!/^\d{4}-\d\d-\d\d$/.test(date)) return fail(ctx, reply, 400, 'PARAM_ERROR', 'bill_date 格式应为 yyyy-MM-DD')
      if (type !== 'ALL' || tar !== undefined)
        return fail(ctx, reply, 400, 'PARAM_ERROR', '模拟器只提供不压缩的 ALL 账单')
      // Yesterday's bill is made the next morning; today's and later ones do not exist yet (not confirmed: the code
      // WeChat Pay answers for a day not yet billed).
      if (date >= beijingDate(ctx.options.now())) return fail(ctx, reply, 400, 'INVALID_REQUEST', '账单尚未生成')
      const { rows, file } = billFile(ctx, date)
      if (rows === 0) return fail(ctx, reply, 400, 'NO_STATEMENT_EXIST', '当日无账单')
      const token = crypto.randomBytes(16).toString('hex')
      const now = ctx.options.now().getTime()
      for (const [k, b] of ctx.bills) if (b.expires < now) ctx.bills.delete(k)
      ctx.bills.set(token, { file, expires: now + DOWNLOAD_TTL_MS })
      return send(ctx, reply, 200, {
        hash_type: 'SHA1',
        hash_value: crypto.createHash('sha1').update(file).digest('hex'),
        download_url: `${ctx.options.publicBase()}/v3/billdownload/file?token=${token}`,
      })
    },
  )

  app.get<{ Querystring: { token?: string } }>(
    '/v3/billdownload/file',
    { schema: { hide: true } },
    async (request, reply) => {
      const bad = checkRequest(ctx, request, '')
      if (bad) return fail(ctx, reply, ...bad)
      const bill = ctx.bills.get(request.query.token ?? '')
      if (!bill || bill.expires < ctx.options.now().getTime())
        return fail(ctx, reply, 404, 'RESOURCE_NOT_EXISTS', '账单下载地址已过期')
      return reply.code(200).type('text/plain; charset=utf-8').send(bill.file)
    },
  )
}
