/** The Douyin simulator's page (demo): buy a group-buy voucher or a Douyin shop order, see its code, refund it. */

import { escapeHtml } from '#server/http/escape-html.ts'

interface PageData {
  products: readonly { skuId: string; title: string }[]
  vouchers: { orderId: string; code: string; title: string; state: string }[]
  orders: { order_id: string; post_tel?: string; order_status: number; sku_order_list: { product_name: string }[] }[]
  notice: string
}

const voucherState: Record<string, string> = { unused: '未使用', used: '已核销', refunded: '已退款' }

export function renderSimulatorPage(d: PageData) {
  const options = d.products
    .map((p) => `<option value="${escapeHtml(p.skuId)}">${escapeHtml(p.title)}</option>`)
    .join('')
  const refund = (id: string) =>
    `<form method="post" action="refund"><input type="hidden" name="order_id" value="${escapeHtml(id)}"><button class="small">退款</button></form>`
  const vouchers = d.vouchers
    .map(
      (v) =>
        `<li><div><b class="code">${escapeHtml(v.code.replace(/(\d{4})(?=\d)/g, '$1 '))}</b> · ${escapeHtml(v.title)} · ${voucherState[v.state] ?? v.state}</div>${v.state === 'refunded' ? '' : refund(v.orderId)}</li>`,
    )
    .join('')
  const orders = d.orders
    .map(
      (o) =>
        `<li><div><b class="code">${escapeHtml(o.order_id)}</b> · ${escapeHtml(o.sku_order_list.map((l) => l.product_name).join('、'))} · ${escapeHtml(o.post_tel ?? '')} · ${o.order_status === 4 ? '已退款' : '已支付'}</div>${o.order_status === 4 ? '' : refund(o.order_id)}</li>`,
    )
    .join('')
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>抖音模拟器</title>
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;background:#f2f3f5;color:#1f1f1f}
main{max-width:500px;margin:0 auto;padding:16px}.bar{font-weight:600;color:#fe2c55;display:flex;gap:8px;padding-bottom:12px}
.sim{margin-left:auto;font-size:12px;font-weight:400;color:#8c8c8c;border:1px solid #d9d9d9;border-radius:4px;padding:0 6px}
section{background:#fff;border-radius:12px;padding:16px;margin-bottom:12px}h2{font-size:16px;margin:0 0 8px}
label{display:block;margin:8px 0 4px;color:#595959;font-size:14px}select,input{width:100%;min-height:44px;font-size:16px;border:1px solid #d9d9d9;border-radius:8px;padding:0 10px}
button{width:100%;min-height:48px;border:0;border-radius:8px;background:#fe2c55;color:#fff;font-size:17px;font-weight:600;margin-top:12px;cursor:pointer}
button.small{width:auto;min-height:36px;font-size:14px;padding:0 14px;margin:6px 0 0;background:#fff;color:#fe2c55;border:1px solid #fe2c55}
ul{list-style:none;margin:0;padding:0}li{border-top:1px solid #f0f0f0;padding:8px 0;word-break:break-all}.code{font-family:monospace;font-size:16px}
.notice{background:#fff7e6;border:1px solid #ffd591;border-radius:8px;padding:10px;margin-bottom:12px;word-break:break-all}
</style></head><body><main>
<div class="bar"><span>抖音</span><span class="sim">本地模拟 · 不会扣款</span></div>
${d.notice ? `<div class="notice" role="status">${escapeHtml(d.notice)}</div>` : ''}
<section><h2>购买测试商品</h2>
<form method="post" action="buy">
<label for="sku">商品</label><select id="sku" name="sku">${options}</select>
<label for="kind">方式</label><select id="kind" name="kind"><option value="voucher">团购券（抖音来客）</option><option value="shop">抖店订单</option></select>
<label for="phone">下单手机号（抖店订单）</label><input id="phone" name="phone" inputmode="numeric" maxlength="11" placeholder="13800138000">
<button>立即购买</button></form></section>
<section><h2>我的团购券</h2><ul>${vouchers || '<li>还没有</li>'}</ul></section>
<section><h2>我的抖店订单</h2><ul>${orders || '<li>还没有</li>'}</ul></section>
</main></body></html>`
}
