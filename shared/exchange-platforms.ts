// Platform orders exchanged for courses (issue 14 §2): the platforms and the shops buyers exchange from. No zod here:
// the learner pages (/data/*, /ke2, /course/ks) read these, and the schemas in shared/api/exchange.ts would
// bring zod (26 KB gzip) into their first load.

/**
 * The platforms an order or voucher can come from. `douyin_life`: Douyin life-service (抖音来客) group-buy vouchers;
 * `douyin_shop`: Douyin shop (抖店) orders; `kuaishou`: Kuaishou shop (快手小店) orders; `xiaohongshu`: Xiaohongshu
 * Ark (小红书) orders; `wechat_shop`: WeChat Shop (微信小店) orders.
 */
export const Platforms = ['douyin_life', 'douyin_shop', 'kuaishou', 'xiaohongshu', 'wechat_shop'] as const
export type Platform = (typeof Platforms)[number]

/** What the console and /order4 call each platform's orders (in the order of `Platforms`). */
const platformNames = ['抖音团购券', '抖店订单', '快手小店订单', '小红书订单', '微信小店订单']
export const PlatformNames = Object.fromEntries(Platforms.map((p, i) => [p, platformNames[i]!])) as Record<
  Platform,
  string
>

/**
 * The shops a buyer exchanges from, each with its endpoints (spec 7) and its /data/* screen: the registry the server
 * mounts the routes from and the pages (/data/*, /ke2) read. Douyin's one shop takes both its platforms.
 */
export const ExchangeShops = {
  douyin: {
    name: '抖音',
    platforms: ['douyin_life', 'douyin_shop'],
    exchangePath: '/tiktok/order2course',
    unexchangedPath: '/data/ttNotExchange',
    page: '/data/tt',
  },
  kuaishou: {
    name: '快手',
    platforms: ['kuaishou'],
    exchangePath: '/ksxd/order2course',
    unexchangedPath: '/data/ksNotExchange',
    page: '/data/ks',
  },
  xiaohongshu: {
    name: '小红书',
    platforms: ['xiaohongshu'],
    exchangePath: '/xhs/order2course',
    unexchangedPath: '/data/xhsNotExchange',
    page: '/data/xhs',
  },
  // The spec names the screen /data/wechatShop but no endpoints: these two follow the others' pattern.
  wechat_shop: {
    name: '微信小店',
    platforms: ['wechat_shop'],
    exchangePath: '/wechatShop/order2course',
    unexchangedPath: '/data/wechatShopNotExchange',
    page: '/data/wechatShop',
  },
} as const satisfies Record<
  string,
  { name: string; platforms: readonly Platform[]; exchangePath: string; unexchangedPath: string; page: string }
>
export type ExchangeShop = keyof typeof ExchangeShops
