import type { FastifyInstance, FastifyReply } from 'fastify'
import { renderCashier, renderRefunds, renderResult, WechatBrand } from '../cashier-page.ts'
import { verifyPaySign } from '../wechatpay-crypto.ts'
import { expireIfDue, type SimContext, type SimTrade } from './context.ts'
import { completeRefund } from './refunds-api.ts'
import { payTrade } from './transactions-api.ts'

// The pages a browser sees instead of WeChat's: the cashier for H5, Native (QR) and JSAPI payments, the merchant
// platform's refund list (demo), and the script standing in for WeixinJSBridge.

function bridgeMessage(result: 'ok' | 'cancel' | 'fail') {
  return `<script>parent.postMessage({ wxsim: ${JSON.stringify(result)} }, '*')</script>`
}

function html(reply: FastifyReply, body: string) {
  return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body)
}

/** Only http(s) addresses (a redirect_url the merchant appended); anything else goes nowhere. */
function safeRedirect(value: unknown) {
  return typeof value === 'string' && /^https?:\/\//.test(value) ? value : ''
}

function cashier(
  ctx: SimContext,
  reply: FastifyReply,
  t: SimTrade,
  mode: 'h5' | 'jsapi' | 'native',
  redirectUrl: string,
) {
  expireIfDue(ctx, t)
  if (t.state !== 'NOTPAY') {
    const done = t.state === 'CLOSED' ? ['订单已关闭', '请回到商户页面重新下单。'] : ['订单已支付', '请勿重复支付。']
    return html(
      reply,
      renderResult(
        WechatBrand,
        done[0]!,
        done[1]!,
        mode === 'jsapi' ? bridgeMessage(t.state === 'CLOSED' ? 'fail' : 'ok') : '',
      ),
    )
  }
  const trade = { description: t.description, amountFen: t.total, orderNo: t.outTradeNo }
  const fields = { prepay_id: t.prepayId, mode, redirect_url: redirectUrl }
  return html(reply, renderCashier(WechatBrand, ctx.options.publicBase(), trade, fields))
}

function afterCashier(
  reply: FastifyReply,
  mode: string,
  redirectUrl: string,
  result: 'ok' | 'cancel',
  message: string,
) {
  if (mode === 'jsapi') return html(reply, renderResult(WechatBrand, message, '', bridgeMessage(result)))
  if (mode === 'h5' && redirectUrl) return reply.redirect(redirectUrl, 302)
  return html(reply, renderResult(WechatBrand, message, result === 'ok' ? '可以回到电脑上的页面查看订单。' : ''))
}

export function pageRoutes(app: FastifyInstance, ctx: SimContext) {
  const { byPrepay, byCode, refunds, options } = ctx

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/checkmweb',
    { schema: { hide: true } },
    async (request, reply) => {
      const t = byPrepay.get(request.query.prepay_id ?? '')
      if (!t || t.code !== request.query.package)
        return html(reply, renderResult(WechatBrand, '链接已失效', '请回到商户页面重新下单。'))
      return cashier(ctx, reply, t, 'h5', safeRedirect(request.query.redirect_url))
    },
  )

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/scan',
    { schema: { hide: true } },
    async (request, reply) => {
      const t = byCode.get(request.query.pr ?? '')
      if (!t) return html(reply, renderResult(WechatBrand, '二维码已失效', '请回到商户页面重新下单。'))
      return cashier(ctx, reply, t, 'native', '')
    },
  )

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/jsapi',
    { schema: { hide: true } },
    async (request, reply) => {
      const q = request.query
      const prepayId = (q.package ?? '').replace(/^prepay_id=/, '')
      const t = byPrepay.get(prepayId)
      const params = {
        appId: q.appId ?? '',
        timeStamp: q.timeStamp ?? '',
        nonceStr: q.nonceStr ?? '',
        package: q.package ?? '',
        paySign: q.paySign ?? '',
      }
      // WeChat's client refuses a request whose paySign does not verify with the merchant key, or of another AppID.
      if (!t || q.signType !== 'RSA' || t.appid !== params.appId || !verifyPaySign(params, options.merchantPublicKey)) {
        return html(reply, renderResult(WechatBrand, '支付验证签名失败', '请联系商户。', bridgeMessage('fail')))
      }
      return cashier(ctx, reply, t, 'jsapi', '')
    },
  )

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))))
  })

  app.post<{ Body: Record<string, string | undefined> }>(
    '/cashier/pay',
    { schema: { hide: true } },
    async (request, reply) => {
      const t = byPrepay.get(request.body?.prepay_id ?? '')
      const mode = request.body?.mode ?? 'h5'
      const redirectUrl = safeRedirect(request.body?.redirect_url)
      if (!t) return html(reply, renderResult(WechatBrand, '订单不存在', ''))
      expireIfDue(ctx, t)
      if (t.state !== 'NOTPAY')
        return cashier(ctx, reply, t, mode === 'jsapi' ? 'jsapi' : mode === 'native' ? 'native' : 'h5', redirectUrl)
      payTrade(ctx, t.outTradeNo)
      return afterCashier(reply, mode, redirectUrl, 'ok', '支付成功')
    },
  )

  app.post<{ Body: Record<string, string | undefined> }>(
    '/cashier/cancel',
    { schema: { hide: true } },
    async (request, reply) =>
      afterCashier(reply, request.body?.mode ?? 'h5', safeRedirect(request.body?.redirect_url), 'cancel', '已取消支付'),
  )

  // The merchant platform's refunds (demo): a person completes a processing refund now instead of waiting.
  app.get('/refunds', { schema: { hide: true } }, async (_request, reply) => {
    const label = { PROCESSING: '退款处理中', SUCCESS: '退款成功', ABNORMAL: '退款异常' } as const
    const rows = [...refunds.values()]
      .sort(
        (a, b) =>
          Number(b.status === 'PROCESSING') - Number(a.status === 'PROCESSING') ||
          b.createdAt.getTime() - a.createdAt.getTime(),
      )
      .map((r) => ({
        refundNo: r.outRefundNo,
        orderNo: r.outTradeNo,
        amountFen: r.amount,
        status: label[r.status],
        processing: r.status === 'PROCESSING',
      }))
    return html(reply, renderRefunds(WechatBrand, rows, `${options.publicBase()}/refunds/complete`))
  })

  app.post<{ Body: Record<string, string | undefined> }>(
    '/refunds/complete',
    { schema: { hide: true } },
    async (request, reply) => {
      completeRefund(ctx, request.body?.out_refund_no ?? '')
      return reply.redirect(`${options.publicBase()}/refunds`, 303)
    },
  )

  app.get('/bridge.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(bridgeScript(options.publicBase())),
  )
}

/**
 * The demo's stand-in for WeChat's in-app WeixinJSBridge: defined only where the real one is absent. It opens the
 * simulator's cashier over the page and answers getBrandWCPayRequest with WeChat's err_msg values.
 */
function bridgeScript(base: string) {
  return `/* Zixue WeChat Pay simulator bridge: for the demo only, never loaded when WeChat's own bridge exists. */
(function () {
  if (window.WeixinJSBridge) return;
  var base = ${JSON.stringify(base)};
  var origin = new URL(base, location.href).origin;
  window.WeixinJSBridge = {
    invoke: function (name, params, callback) {
      var done = typeof callback === 'function' ? callback : function () {};
      if (name !== 'getBrandWCPayRequest') { done({ err_msg: name + ':fail_not_supported_in_simulator' }); return; }
      var overlay = document.createElement('div');
      overlay.setAttribute('style', 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.45);display:flex;align-items:flex-end;justify-content:center');
      var frame = document.createElement('iframe');
      frame.title = '微信支付';
      frame.setAttribute('style', 'width:100%;max-width:500px;height:88%;border:0;border-radius:12px 12px 0 0;background:#f2f3f5');
      frame.src = base + '/jsapi?' + new URLSearchParams(params || {}).toString();
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      function onMessage(event) {
        if (event.origin !== origin || !event.data || typeof event.data.wxsim !== 'string') return;
        window.removeEventListener('message', onMessage);
        setTimeout(function () { overlay.remove(); done({ err_msg: 'get_brand_wcpay_request:' + event.data.wxsim }); }, event.data.wxsim === 'ok' ? 600 : 0);
      }
      window.addEventListener('message', onMessage);
    },
    on: function () {},
    call: function () {}
  };
  document.dispatchEvent(new Event('WeixinJSBridgeReady'));
})();
`
}
