import type { ExchangeDeps } from './exchange-platform-order.ts'
import { applyReportedOrder } from './handle-platform-push.ts'

/**
 * One round of the platform sync (the periodic job, server/modules/exchange/sync-job.ts): each platform that lists
 * recent orders is asked for those changed in the last `lookbackMs`; each is remembered for the NotExchange lists,
 * and a cancelled order or refunded line revokes exactly what it granted (revoking twice does nothing). Returns how
 * many orders it read, how many exchange records it revoked, and the platforms that could not be read (one platform
 * failing does not keep the others from their round).
 */
export async function syncPlatformOrders(deps: ExchangeDeps, lookbackMs: number) {
  let orders = 0
  let revoked = 0
  const failed: string[] = []
  for (const adapter of Object.values(deps.adapters)) {
    if (!adapter?.listRecent) continue
    const until = deps.now()
    let list
    try {
      list = await adapter.listRecent(new Date(until.getTime() - lookbackMs), until)
    } catch {
      failed.push(adapter.platform)
      continue
    }
    for (const o of list) {
      if (!o.ours) continue
      orders++
      const now = deps.now()
      revoked += (await deps.db.transaction((tx) => applyReportedOrder(tx, o, now))).length
    }
  }
  return { orders, revoked, failed }
}
