import type { FastifyInstance } from 'fastify'
import type { PlatformFetch } from './http.ts'
import { createKuaishouSimulator } from './kuaishou-simulator.ts'
import { ShopSimPrefixes, SimulatedShops, type PlatformsConfig } from './platforms-config.ts'
import { createWechatShopSimulator } from './wechat-shop-simulator.ts'
import { createXiaohongshuSimulator } from './xiaohongshu-simulator.ts'

/**
 * The Kuaishou, Xiaohongshu and WeChat Shop simulators of the platforms that run on them (no credentials; never in
 * production, see platforms-config.ts), mounted under their prefixes (/__sim/kuaishou, …): `app.shopSimulators`.
 */
export async function mountShopSimulators(
  app: FastifyInstance,
  c: PlatformsConfig,
  deps: { publicUrl: string; fetch: PlatformFetch; now: () => Date },
) {
  const common = { fetch: deps.fetch, now: deps.now }
  const notifyUrl = (path: string) => () => `${deps.publicUrl}/api${path}`
  const sims = {
    kuaishou: c.kuaishou?.simulated
      ? createKuaishouSimulator({ ...SimulatedShops.kuaishou, ...common, notifyUrl: notifyUrl('/ksxd/notify') })
      : null,
    xiaohongshu: c.xiaohongshu?.simulated
      ? createXiaohongshuSimulator({ ...SimulatedShops.xiaohongshu, ...common })
      : null,
    wechat_shop: c.wechatShop?.simulated
      ? createWechatShopSimulator({
          ...SimulatedShops.wechat_shop,
          ...common,
          notifyUrl: notifyUrl('/wechatShop/notify'),
        })
      : null,
  }
  for (const [id, sim] of Object.entries(sims))
    if (sim) await app.register(sim.plugin, { prefix: ShopSimPrefixes[id as keyof typeof sims] })
  return sims
}

export type ShopSimulators = Awaited<ReturnType<typeof mountShopSimulators>>
