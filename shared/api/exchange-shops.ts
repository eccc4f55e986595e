import type { Platform } from './exchange.ts'

/**
 * The shops whose orders can be exchanged for courses (issue 14 §2), one entry per /data/* screen: which platforms
 * (shared/api/exchange.ts) its orders come from and which endpoints (spec 7) take them. /ke2 lists every shop's
 * unexchanged orders from here and links to each screen; a platform joins by adding its entry, nothing else.
 */
export interface ExchangeShop {
  /** The screen's key (also its test id). */
  key: string
  /** What people call the shop ("抖音"). */
  name: string
  /** What can be pasted there, in a few words. */
  accepts: string
  /** The platforms this shop's exchange endpoint serves. */
  platforms: readonly Platform[]
  /** The exchange screen. */
  page: string
  /** POST: exchange one order (`{ order_no }`). */
  exchangePath: string
  /** GET: the member's unexchanged orders on these platforms. */
  unexchangedPath: string
}

export const ExchangeShops: readonly ExchangeShop[] = [
  {
    key: 'douyin',
    name: '抖音',
    accepts: '团购券码、抖店订单号',
    platforms: ['douyin_life', 'douyin_shop'],
    page: '/data/tt',
    exchangePath: '/tiktok/order2course',
    unexchangedPath: '/data/ttNotExchange',
  },
]

/** The shop of this key (a registry entry that must exist). */
export function exchangeShop(key: string): ExchangeShop {
  const shop = ExchangeShops.find((s) => s.key === key)
  if (!shop) throw new Error(`unknown exchange shop ${key}`)
  return shop
}
