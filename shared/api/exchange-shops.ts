import { ExchangeShops as shops, type Platform } from '#shared/exchange-platforms.ts'

/**
 * The shops whose orders can be exchanged for courses (issue 14 §2), one entry per /data/* screen: which platforms
 * (shared/exchange-platforms.ts) its orders come from and which endpoints (spec 7) take them. /ke2 lists every shop's
 * unexchanged orders from here and links to each screen; a platform joins by adding its entry to the registry in
 * shared/exchange-platforms.ts (and what its screen accepts here), nothing else.
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

/** What each shop's screen takes, in a few words. */
const accepts: Record<keyof typeof shops, string> = {
  douyin: '团购券码、抖店订单号',
  kuaishou: '快手小店订单号',
  xiaohongshu: '小红书订单号',
  wechat_shop: '微信小店订单号',
}

export const ExchangeShops: readonly ExchangeShop[] = Object.entries(shops).map(([key, shop]) => ({
  key,
  accepts: accepts[key as keyof typeof shops],
  ...shop,
}))
