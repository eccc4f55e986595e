import type { ExchangeDeps } from './exchange-platform-order.ts'
import { rememberOrder } from './handle-platform-push.ts'
import { revokePlatformOrderIn } from './revoke-platform-order.ts'

/**
 * One round of the platform sync (the periodic job, server/modules/exchange/sync-job.ts): each platform that lists
 * recent orders is asked for those changed in the last `lookbackMs`; each is remembered for the NotExchange lists,
 * and a cancelled order or refunded line revokes exactly what it granted (revoking twice does nothing). Returns how
 * many orders it read and how many exchange records it revoked.
 */
export async function syncPlatformOrders(deps: ExchangeDeps, lookbackMs: number) {
  let orders = 0
  let revoked = 0
  for (const adapter of Object.values(deps.adapters)) {
    if (!adapter?.listRecent) continue
    const until = deps.now()
    const list = await adapter.listRecent(new Date(until.getTime() - lookbackMs), until)
    for (const o of list) {
      if (!o.ours) continue
      orders++
      const now = deps.now()
      await deps.db.transaction(async (tx) => {
        await rememberOrder(tx, o, now)
        const refunded = o.lines.filter((l) => l.state === 'refunded').map((l) => l.lineId)
        const reason = `${o.platform === 'douyin_shop' ? '抖店' : '平台'}订单已退款或取消`
        if (o.state === 'cancelled' || refunded.length > 0)
          revoked += (
            await revokePlatformOrderIn(tx, {
              platform: o.platform,
              orderId: o.orderId,
              lineIds: o.state === 'cancelled' ? null : refunded,
              reason,
              now,
            })
          ).length
      })
    }
  }
  return { orders, revoked }
}
