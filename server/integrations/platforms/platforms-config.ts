import { z } from 'zod'
import { createDouyinLifeAdapter, type DouyinLifeSettings } from './douyin-life.ts'
import { createDouyinShopAdapter, type DouyinShopSettings } from './douyin-shop.ts'
import type { PlatformFetch } from './http.ts'
import { createKuaishouAdapter, type KuaishouSettings } from './kuaishou.ts'
import type { PlatformAdapters } from './platform.ts'
import { createWechatShopAdapter, type WechatShopSettings } from './wechat-shop.ts'
import { createXiaohongshuAdapter, type XiaohongshuSettings } from './xiaohongshu.ts'

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

/** Credentials, empty by default (the platform then runs on its simulator, or is off in production). */
function credentials<const N extends string>(...names: N[]) {
  return Object.fromEntries(names.map((n) => [n, z.string().default('')])) as { [K in N]: z.ZodDefault<z.ZodString> }
}
/** A platform's API base URL, when it is not the platform's own. */
const apiBase = () => z.url({ protocol: /^https?$/ }).optional()

/** The platform variables of the environment (server/config.ts spreads them into its schema). */
export const platformEnv = {
  DOUYIN_API_BASE: apiBase(),
  ...credentials('DOUYIN_LIFE_CLIENT_KEY', 'DOUYIN_LIFE_CLIENT_SECRET', 'DOUYIN_LIFE_ACCOUNT_ID', 'DOUYIN_LIFE_POI_ID'),
  DOUDIAN_API_BASE: apiBase(),
  ...credentials('DOUDIAN_APP_KEY', 'DOUDIAN_APP_SECRET', 'DOUDIAN_SHOP_ID'),
  KUAISHOU_API_BASE: apiBase(),
  ...credentials(
    'KUAISHOU_APP_KEY',
    'KUAISHOU_APP_SECRET',
    'KUAISHOU_SIGN_SECRET',
    'KUAISHOU_MESSAGE_KEY',
    'KUAISHOU_REFRESH_TOKEN',
    'KUAISHOU_SELLER_ID',
  ),
  XHS_API_BASE: apiBase(),
  ...credentials('XHS_APP_ID', 'XHS_APP_SECRET', 'XHS_REFRESH_TOKEN', 'XHS_SELLER_ID'),
  WECHAT_SHOP_API_BASE: apiBase(),
  ...credentials('WECHAT_SHOP_APPID', 'WECHAT_SHOP_SECRET', 'WECHAT_SHOP_PUSH_TOKEN'),
  /** The periodic sync of platform orders (refunds, the NotExchange lists). */
  PLATFORM_SYNC: bool.default(true),
  PLATFORM_SYNC_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
}
type PlatformEnv = z.output<z.ZodObject<typeof platformEnv>>

/** The simulators' credentials (demo, development, tests): our own test secrets, never a real account's. */
export const SimulatedDouyin = {
  clientKey: 'awsimulatedlife',
  clientSecret: 'simulated-douyin-life-client-secret',
  accountId: '7000000000000000001',
  poiId: '7100000000000000001',
  appKey: '7200000000000000001',
  appSecret: 'simulated-doudian-app-secret',
  shopId: '4463798',
}

export const DOUYIN_SIM_PREFIX = '/__sim/douyin'

/** The Kuaishou, Xiaohongshu and WeChat Shop simulators' credentials: our own test secrets. */
export const SimulatedShops = {
  kuaishou: {
    appKey: 'ks000000000000000001',
    appSecret: 'simulated-kuaishou-app-secret',
    signSecret: 'simulated-kuaishou-sign-secret',
    messageKey: Buffer.from('simulated-ks-aes').toString('base64'),
    refreshToken: 'simulated-kuaishou-refresh-token',
    sellerId: '1900000001',
  },
  xiaohongshu: {
    appId: 'a1b2c3d4e5f60000simu',
    appSecret: 'simulated-xiaohongshu-app-secret',
    refreshToken: 'simulated-xiaohongshu-refresh-token',
    sellerId: '5f0000000000000000000001',
  },
  wechat_shop: { appId: 'wx00000000simulated', appSecret: 'simulated-wechat-shop-secret', pushToken: 'simulatedToken' },
}

/** Where each shop simulator is mounted (its API base when no credentials are configured). */
export const ShopSimPrefixes = {
  kuaishou: '/__sim/kuaishou',
  xiaohongshu: '/__sim/xiaohongshu',
  wechat_shop: '/__sim/wechat-shop',
} as const

/** A platform's settings: the real ones when it has credentials, else the simulator's outside production, else off. */
function pick<R extends object, S extends object>(
  real: boolean,
  production: boolean,
  realSettings: () => R,
  simSettings: S,
): ((R | S) & { simulated: boolean }) | null {
  if (real) return { simulated: false, ...realSettings() }
  return production ? null : { simulated: true, ...simSettings }
}

const base = (v: string | undefined, fallback: string) => (v ?? fallback).replace(/\/$/, '')

/**
 * Which platforms are on and how: real credentials from the environment; without them the local simulator outside
 * production; in production a platform without credentials is off (the exchange says it is not open).
 */
export function platformConfig(e: PlatformEnv, o: { production: boolean; publicUrl: string }) {
  const simBase = `${o.publicUrl}${DOUYIN_SIM_PREFIX}`
  const lifeReal = e.DOUYIN_LIFE_CLIENT_KEY !== ''
  const shopReal = e.DOUDIAN_APP_KEY !== ''
  const problems: string[] = []
  if (lifeReal && (!e.DOUYIN_LIFE_CLIENT_SECRET || !e.DOUYIN_LIFE_POI_ID))
    problems.push('  DOUYIN_LIFE_CLIENT_SECRET, DOUYIN_LIFE_POI_ID: required with DOUYIN_LIFE_CLIENT_KEY')
  if (shopReal && (!e.DOUDIAN_APP_SECRET || !e.DOUDIAN_SHOP_ID))
    problems.push('  DOUDIAN_APP_SECRET, DOUDIAN_SHOP_ID: required with DOUDIAN_APP_KEY')
  /**
   * A shop's settings from its variables (`vars`: setting → variable, the first one switching the real platform on,
   * every other then required), or its simulator's.
   */
  const shop = <S extends object>(
    id: keyof typeof ShopSimPrefixes,
    api: { variable: keyof PlatformEnv; fallback: string },
    vars: Record<Exclude<keyof S, 'baseUrl'>, keyof PlatformEnv>,
  ): (S & { simulated: boolean }) | null => {
    const names = Object.values<keyof PlatformEnv>(vars)
    const missing = names.filter((n) => !e[n])
    if (e[names[0]!] && missing.length > 0) problems.push(`  ${missing.join(', ')}: required with ${names[0]}`)
    const settings = () => ({
      baseUrl: base(e[api.variable] as string | undefined, api.fallback),
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, e[v as keyof PlatformEnv]])),
    })
    return pick(e[names[0]!] !== '', o.production, settings, {
      baseUrl: `${o.publicUrl}${ShopSimPrefixes[id]}`,
      ...SimulatedShops[id],
    }) as (S & { simulated: boolean }) | null
  }
  const kuaishou = shop<KuaishouSettings>(
    'kuaishou',
    { variable: 'KUAISHOU_API_BASE', fallback: 'https://openapi.kwaixiaodian.com' },
    {
      appKey: 'KUAISHOU_APP_KEY',
      appSecret: 'KUAISHOU_APP_SECRET',
      signSecret: 'KUAISHOU_SIGN_SECRET',
      messageKey: 'KUAISHOU_MESSAGE_KEY',
      refreshToken: 'KUAISHOU_REFRESH_TOKEN',
      sellerId: 'KUAISHOU_SELLER_ID',
    },
  )
  const xiaohongshu = shop<XiaohongshuSettings>(
    'xiaohongshu',
    { variable: 'XHS_API_BASE', fallback: 'https://ark.xiaohongshu.com' },
    { appId: 'XHS_APP_ID', appSecret: 'XHS_APP_SECRET', refreshToken: 'XHS_REFRESH_TOKEN', sellerId: 'XHS_SELLER_ID' },
  )
  const wechatShop = shop<WechatShopSettings>(
    'wechat_shop',
    { variable: 'WECHAT_SHOP_API_BASE', fallback: 'https://api.weixin.qq.com' },
    { appId: 'WECHAT_SHOP_APPID', appSecret: 'WECHAT_SHOP_SECRET', pushToken: 'WECHAT_SHOP_PUSH_TOKEN' },
  )
  const douyinLife: (Omit<DouyinLifeSettings, 'retryDelaysMs'> & { simulated: boolean }) | null = lifeReal
    ? {
        simulated: false,
        baseUrl: (e.DOUYIN_API_BASE ?? 'https://open.douyin.com').replace(/\/$/, ''),
        clientKey: e.DOUYIN_LIFE_CLIENT_KEY,
        clientSecret: e.DOUYIN_LIFE_CLIENT_SECRET,
        accountId: e.DOUYIN_LIFE_ACCOUNT_ID,
        poiId: e.DOUYIN_LIFE_POI_ID,
      }
    : o.production
      ? null
      : { simulated: true, baseUrl: simBase, ...SimulatedDouyin }
  const douyinShop: (DouyinShopSettings & { simulated: boolean }) | null = shopReal
    ? {
        simulated: false,
        baseUrl: (e.DOUDIAN_API_BASE ?? 'https://openapi-fxg.jinritemai.com').replace(/\/$/, ''),
        appKey: e.DOUDIAN_APP_KEY,
        appSecret: e.DOUDIAN_APP_SECRET,
        shopId: e.DOUDIAN_SHOP_ID,
      }
    : o.production
      ? null
      : { simulated: true, baseUrl: simBase, ...SimulatedDouyin }
  return {
    problems,
    config: {
      douyinLife,
      douyinShop,
      /** The Douyin simulator is mounted when either Douyin platform runs on it. */
      douyinSimulated: douyinLife?.simulated === true || douyinShop?.simulated === true,
      kuaishou,
      xiaohongshu,
      wechatShop,
      sync: e.PLATFORM_SYNC,
      syncIntervalMs: e.PLATFORM_SYNC_SECONDS * 1000,
    },
  }
}

export type PlatformsConfig = ReturnType<typeof platformConfig>['config']

/** The adapters of the platforms that are on. `retryDelaysMs`: pauses between Douyin verify retries. */
export function createPlatformAdapters(
  c: PlatformsConfig,
  deps: { fetch: PlatformFetch; now: () => Date; retryDelaysMs?: number[] },
): PlatformAdapters {
  const adapters: PlatformAdapters = {}
  if (c.douyinLife)
    adapters.douyin_life = createDouyinLifeAdapter(
      { ...c.douyinLife, retryDelaysMs: deps.retryDelaysMs ?? [5000, 5000] },
      deps.fetch,
    )
  if (c.douyinShop) adapters.douyin_shop = createDouyinShopAdapter(c.douyinShop, deps.fetch, deps.now)
  if (c.kuaishou) adapters.kuaishou = createKuaishouAdapter(c.kuaishou, deps.fetch, deps.now)
  if (c.xiaohongshu) adapters.xiaohongshu = createXiaohongshuAdapter(c.xiaohongshu, deps.fetch, deps.now)
  if (c.wechatShop) adapters.wechat_shop = createWechatShopAdapter(c.wechatShop, deps.fetch)
  return adapters
}
