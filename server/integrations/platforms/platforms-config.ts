import { z } from 'zod'
import { createDouyinLifeAdapter, type DouyinLifeSettings } from './douyin-life.ts'
import { createDouyinShopAdapter, type DouyinShopSettings } from './douyin-shop.ts'
import type { PlatformFetch } from './http.ts'
import type { PlatformAdapters } from './platform.ts'

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

/** The platform variables of the environment (server/config.ts spreads them into its schema). */
export const platformEnv = {
  DOUYIN_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  DOUYIN_LIFE_CLIENT_KEY: z.string().default(''),
  DOUYIN_LIFE_CLIENT_SECRET: z.string().default(''),
  DOUYIN_LIFE_ACCOUNT_ID: z.string().default(''),
  DOUYIN_LIFE_POI_ID: z.string().default(''),
  DOUDIAN_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  DOUDIAN_APP_KEY: z.string().default(''),
  DOUDIAN_APP_SECRET: z.string().default(''),
  DOUDIAN_SHOP_ID: z.string().default(''),
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
  return adapters
}
