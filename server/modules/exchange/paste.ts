import type { OrderRef } from '#server/integrations/platforms/platform.ts'

// What buyers paste into /data/tt: a bare number, a number with spaces or dashes, the platform's whole share text
// ("【抖音】… 券码：1234 5678 9012 …复制打开抖音"), or a voucher's QR link with its object_id.

/** The digit runs of a pasted text, read with the spaces and dashes people type between digit groups. */
const digitRuns = (text: string) => (text.match(/\d(?:[\s-]?\d)+/g) ?? []).map((r) => r.replace(/\D/g, ''))

/** Douyin shop (抖店) order numbers are 19 digits; Douyin group-buy voucher codes are shorter (10–16). */
const SHOP_ORDER_DIGITS = 19

/**
 * The order number or voucher code inside what the buyer pasted, or null when there is none. A voucher link gives
 * its `object_id` (Douyin: "请仅感知链接中的 object_id 参数"). Numbers are read with the spaces and dashes people
 * type between digit groups; the longest such number wins (prices and dates in a share text are shorter).
 */
export function readOrderRef(pasted: string): OrderRef | null {
  const text = pasted.normalize('NFKC')
  const objectId = /[?&]object_id=([\w%.-]+)/.exec(text)?.[1]
  if (objectId) return { kind: 'voucher_link', encryptedData: decodeURIComponent(objectId) }
  const best = digitRuns(text)
    .filter((r) => r.length >= 10 && r.length <= SHOP_ORDER_DIGITS)
    .sort((a, b) => b.length - a.length)[0]
  if (!best) return null
  return best.length === SHOP_ORDER_DIGITS ? { kind: 'order', orderId: best } : { kind: 'voucher_code', code: best }
}

/** How long an order number is on each shop (Kuaishou oid 16, WeChat Shop 19; Xiaohongshu "P" + 18 digits). */
const ORDER_DIGITS = { kuaishou: [12, 20], xiaohongshu: [15, 20], wechat_shop: [15, 20] } as const

/**
 * The order number inside what a Kuaishou, Xiaohongshu or WeChat Shop buyer pasted (a bare number, digits in
 * groups, the whole share text), or null. The longest number of the right length wins.
 */
export function readShopOrderRef(shop: keyof typeof ORDER_DIGITS, pasted: string): OrderRef | null {
  const text = pasted.normalize('NFKC')
  const [min, max] = ORDER_DIGITS[shop]
  if (shop === 'xiaohongshu') {
    const p = /P[\s-]?(\d(?:[\s-]?\d)+)/i.exec(text)?.[1]?.replace(/\D/g, '')
    if (p && p.length >= min && p.length <= max) return { kind: 'order', orderId: `P${p}` }
  }
  const best = digitRuns(text)
    .filter((r) => r.length >= min && r.length <= max)
    .sort((a, b) => b.length - a.length)[0]
  if (!best) return null
  return { kind: 'order', orderId: shop === 'xiaohongshu' ? `P${best}` : best }
}
