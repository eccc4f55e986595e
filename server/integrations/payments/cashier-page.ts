import { fenToYuan } from '#shared/money.ts'
import { escapeHtml } from '#server/http/escape-html.ts'
import { htmlPage } from '#server/http/html-page.ts'

/**
 * The simulators' cashier pages: what a person sees instead of WeChat's or Alipay's payment sheet in the demo.
 * Plain HTML and CSS, readable on a 360 px phone, buttons at least 44 px high, zh-CN.
 */

export interface Brand {
  name: string
  color: string
}

export const WechatBrand: Brand = { name: '微信支付', color: '#07c160' }
export const AlipayBrand: Brand = { name: '支付宝', color: '#1677ff' }

function layout(brand: Brand, title: string, body: string, script = '') {
  return htmlPage({
    title,
    cover: true,
    css: `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 -apple-system,BlinkMacSystemFont,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;background:#f2f3f5;color:#1f1f1f}
  main{max-width:500px;margin:0 auto;min-height:100vh;display:flex;flex-direction:column;padding:16px}
  .bar{display:flex;align-items:center;gap:8px;font-weight:600;color:${brand.color};padding:4px 0 16px}
  .sim{margin-left:auto;font-size:12px;font-weight:400;color:#8c8c8c;border:1px solid #d9d9d9;border-radius:4px;padding:0 6px}
  .card{background:#fff;border-radius:12px;padding:24px 16px;text-align:center}
  .merchant{color:#595959;font-size:15px}
  .amount{font-size:40px;font-weight:600;margin:8px 0 4px;letter-spacing:.5px}
  .amount small{font-size:22px;margin-right:2px}
  .desc{color:#8c8c8c;font-size:14px;word-break:break-all}
  .rows{margin-top:16px;text-align:left;font-size:14px;color:#595959;border-top:1px solid #f0f0f0;padding-top:12px}
  .rows div{display:flex;justify-content:space-between;gap:12px;padding:4px 0}
  .rows span:last-child{color:#1f1f1f;text-align:right;word-break:break-all}
  .actions{margin-top:auto;padding-top:24px;display:flex;flex-direction:column;gap:12px}
  button{width:100%;min-height:48px;border-radius:8px;border:0;font-size:17px;cursor:pointer}
  .pay{background:${brand.color};color:#fff;font-weight:600}
  .cancel{background:#fff;color:#595959;border:1px solid #d9d9d9}
  .note{font-size:12px;color:#8c8c8c;text-align:center;margin-top:12px}
  .state{font-size:20px;font-weight:600;margin:8px 0}
`,
    body: `<main>
<div class="bar"><span>${escapeHtml(brand.name)}</span><span class="sim">本地模拟 · 不会扣款</span></div>
${body}
</main>${script}`,
  })
}

/** What the cashier shows of the trade being paid. */
export interface CashierTrade {
  description: string
  amountFen: number
  orderNo: string
  /** How it is paid, as the cashier shows it (Alipay: Huabei instalments with their periods and fee). */
  payWay?: string
}

/** The merchant every simulated cashier names. */
const MERCHANT = '自学'

function hidden(fields: Record<string, string>) {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('')
}

/**
 * A simulator's cashier for one trade: pay or cancel, each a form posted to the simulator's `base`
 * (`/cashier/pay`, `/cashier/cancel`) with the hidden `fields` that name the trade.
 */
export function renderCashier(brand: Brand, base: string, t: CashierTrade, fields: Record<string, string>) {
  const body = `<section class="card">
  <div class="merchant">${escapeHtml(MERCHANT)}</div>
  <div class="amount"><small>¥</small>${fenToYuan(t.amountFen)}</div>
  <div class="desc">${escapeHtml(t.description)}</div>
  <div class="rows"><div><span>订单号</span><span>${escapeHtml(t.orderNo)}</span></div><div><span>付款方式</span><span>${escapeHtml(t.payWay ?? '零钱（模拟）')}</span></div></div>
</section>
<div class="actions">
  <form method="post" action="${escapeHtml(`${base}/cashier/pay`)}">${hidden(fields)}<button class="pay" type="submit">确认支付</button></form>
  <form method="post" action="${escapeHtml(`${base}/cashier/cancel`)}">${hidden(fields)}<button class="cancel" type="submit">取消</button></form>
  <p class="note">这是自学的本地支付模拟器：按“确认支付”后，模拟器会像真实支付平台一样签名并通知服务器。</p>
</div>`
  return layout(brand, `${brand.name} - ${MERCHANT}`, body)
}

/** A result page; `script` may tell a parent window (the JSAPI bridge) what happened. */
export function renderResult(brand: Brand, title: string, message: string, script = '') {
  const body = `<section class="card"><div class="state">${escapeHtml(title)}</div><div class="desc">${escapeHtml(message)}</div></section>`
  return layout(brand, title, body, script)
}

export interface RefundRowView {
  refundNo: string
  orderNo: string
  amountFen: number
  /** 退款处理中 (may be completed now), 退款成功, 退款异常 */
  status: string
  processing: boolean
}

/**
 * The merchant platform's refund list (the demo's stand-in for 商户平台 → 退款): refunds still processing can be
 * completed now instead of waiting, which sends the refund notification.
 */
export function renderRefunds(brand: Brand, rows: RefundRowView[], completeAction: string) {
  const items = rows
    .map(
      (r) => `<section class="card refund"><div class="rows">
  <div><span>退款单号</span><span>${escapeHtml(r.refundNo)}</span></div>
  <div><span>订单号</span><span>${escapeHtml(r.orderNo)}</span></div>
  <div><span>退款金额</span><span>¥${fenToYuan(r.amountFen)}</span></div>
  <div><span>状态</span><span>${escapeHtml(r.status)}</span></div>
</div>${
        !r.processing
          ? ''
          : `<form method="post" action="${escapeHtml(completeAction)}">${hidden({ out_refund_no: r.refundNo })}<button class="pay" type="submit" aria-label="完成退款 ${escapeHtml(r.refundNo)}">完成退款</button></form>`
      }</section>`,
    )
    .join('')
  const body = `<h1 class="state">退款管理</h1>
${items || '<section class="card"><div class="desc">还没有退款</div></section>'}
<p class="note">真实的退款需要一段时间到账；模拟器会在稍后自动完成，按“完成退款”可立即完成并通知服务器。</p>`
  return layout(
    brand,
    `${brand.name} - 退款管理`,
    body,
    '<style>.refund{margin-bottom:12px}.refund .rows{margin-top:0;border-top:0;padding-top:0}.refund form{margin-top:12px}</style>',
  )
}
