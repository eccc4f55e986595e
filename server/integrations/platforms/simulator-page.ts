import type { FastifyInstance, FastifyReply } from 'fastify'
import { escapeHtml as esc } from '#server/http/escape-html.ts'
import { htmlPage } from '#server/http/html-page.ts'

// The platform simulators' pages (demo): buy a test order on the platform's look-alike, see its number, refund it.
// One shell and one set of routes for every simulator (Douyin, Kuaishou, Xiaohongshu, WeChat Shop).

/** A product the simulator sells (the demo seed maps most of them to courses). */
export interface SimProduct {
  skuId: string
  title: string
}

/** One bought order or voucher as the page lists it. */
export interface SimListed {
  /** What the buyer copies (an order number, a voucher code). */
  number: string
  title: string
  detail: string
  /** The id the refund button sends, or null when there is nothing left to refund. */
  refundId: string | null
}

const refundForm = (id: string) =>
  `<form method="post" action="refund"><input type="hidden" name="order_id" value="${esc(id)}"><button class="small">退款</button></form>`

const list = (items: SimListed[]) =>
  items
    .map(
      (v) =>
        `<li><div><b class="code">${esc(v.number)}</b> · ${esc(v.title)} · ${esc(v.detail)}</div>${v.refundId ? refundForm(v.refundId) : ''}</li>`,
    )
    .join('') || '<li>还没有</li>'

export interface SimPage {
  brand: string
  color: string
  products: readonly SimProduct[]
  /** Extra fields of the buy form (Douyin: voucher or shop order). */
  kinds?: { value: string; label: string }[]
  /** The lists under the form: a heading and its items. */
  sections: { title: string; items: SimListed[] }[]
  notice: string
}

export function renderSimulatorPage(d: SimPage) {
  const options = d.products.map((p) => `<option value="${esc(p.skuId)}">${esc(p.title)}</option>`).join('')
  const kinds = d.kinds
    ? `<label for="kind">方式</label><select id="kind" name="kind">${d.kinds.map((k) => `<option value="${esc(k.value)}">${esc(k.label)}</option>`).join('')}</select>`
    : ''
  return htmlPage({
    title: `${d.brand}模拟器`,
    css: `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;background:#f2f3f5;color:#1f1f1f}
main{max-width:500px;margin:0 auto;padding:16px}.bar{font-weight:600;color:${d.color};display:flex;gap:8px;padding-bottom:12px}
.sim{margin-left:auto;font-size:12px;font-weight:400;color:#8c8c8c;border:1px solid #d9d9d9;border-radius:4px;padding:0 6px}
section{background:#fff;border-radius:12px;padding:16px;margin-bottom:12px}h2{font-size:16px;margin:0 0 8px}
label{display:block;margin:8px 0 4px;color:#595959;font-size:14px}select,input{width:100%;min-height:44px;font-size:16px;border:1px solid #d9d9d9;border-radius:8px;padding:0 10px}
button{width:100%;min-height:48px;border:0;border-radius:8px;background:${d.color};color:#fff;font-size:17px;font-weight:600;margin-top:12px;cursor:pointer}
button.small{width:auto;min-height:36px;font-size:14px;padding:0 14px;margin:6px 0 0;background:#fff;color:${d.color};border:1px solid ${d.color}}
ul{list-style:none;margin:0;padding:0}li{border-top:1px solid #f0f0f0;padding:8px 0;word-break:break-all}.code{font-family:monospace;font-size:16px}
.notice{background:#fff7e6;border:1px solid #ffd591;border-radius:8px;padding:10px;margin-bottom:12px;word-break:break-all}
`,
    body: `<main>
<div class="bar"><span>${esc(d.brand)}</span><span class="sim">本地模拟 · 不会扣款</span></div>
${d.notice ? `<div class="notice" role="status">${esc(d.notice)}</div>` : ''}
<section><h2>购买测试商品</h2>
<form method="post" action="buy">
<label for="sku">商品</label><select id="sku" name="sku">${options}</select>
${kinds}
<label for="phone">下单手机号</label><input id="phone" name="phone" inputmode="numeric" maxlength="11" placeholder="13800138000">
<button>立即购买</button></form></section>
${d.sections.map((s) => `<section><h2>${esc(s.title)}</h2><ul>${list(s.items)}</ul></section>`).join('\n')}
</main>`,
  })
}

/** The digits of the phone typed on a simulator's page, or null when it is not a mainland mobile number. */
export const typedPhone = (v: string | undefined) => {
  const phone = (v ?? '').replace(/\D/g, '')
  return /^1[3-9]\d{9}$/.test(phone) ? phone : null
}

/**
 * The page's routes under a simulator's prefix: GET / shows it, POST /buy buys the chosen product (answers the
 * notice to show), POST /refund refunds an order. Forms post urlencoded.
 */
export function simulatorPageRoutes(
  app: FastifyInstance,
  o: {
    page: (notice: string) => string
    products: readonly SimProduct[]
    buy: (product: SimProduct, form: Record<string, string | undefined>) => string
    refund: (id: string) => Promise<void> | void
  },
) {
  const send = (reply: FastifyReply, notice = '') => reply.type('text/html; charset=utf-8').send(o.page(notice))
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.get('/', async (_req, reply) => send(reply))
  app.post<{ Body: Record<string, string | undefined> }>('/buy', async (req, reply) => {
    const product = o.products.find((p) => p.skuId === req.body?.sku) ?? o.products[0]!
    return send(reply, o.buy(product, req.body ?? {}))
  })
  app.post<{ Body: Record<string, string | undefined> }>('/refund', async (req, reply) => {
    const id = req.body?.order_id ?? ''
    await o.refund(id)
    return send(reply, `订单 ${id} 已退款`)
  })
}

/** What a simulator's product costs, in fen (courses ¥99 and ¥69, the VIP month ¥30, the unmapped one ¥9.90). */
export function simulatorPriceFen(skuId: string): number {
  return skuId.endsWith('-SKU-1001')
    ? 9900
    : skuId.endsWith('-SKU-1002')
      ? 6900
      : skuId.endsWith('-VIP-30')
        ? 3000
        : 990
}

/** The products every simulator sells, with its SKU prefix: two courses, a VIP month, and one left unmapped. */
export const simulatorProducts = (prefix: string, suffix: string): SimProduct[] => [
  { skuId: `${prefix}-SKU-1001`, title: `Photoshop 零基础入门课${suffix}` },
  { skuId: `${prefix}-SKU-1002`, title: `Excel 办公效率课${suffix}` },
  { skuId: `${prefix}-VIP-30`, title: `自学 VIP 月卡${suffix}` },
  { skuId: `${prefix}-SKU-9999`, title: '未上架的测试商品' },
]
