import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import type { PlatformFetch } from '#server/integrations/platforms/http.ts'
import { createPlatformAdapters } from '#server/integrations/platforms/platforms-config.ts'
import { createExchangeAdmin, unexchangedOrdersOf } from '#server/modules/exchange/exchange.service.ts'
import { withTryLock } from '#server/modules/payments/payments.service.ts'
import { exchangePlatformOrder } from '#server/use-cases/exchange-platform-order.ts'
import { handlePlatformPush } from '#server/use-cases/handle-platform-push.ts'
import { revokeExchangeRecord } from '#server/use-cases/revoke-platform-order.ts'
import { syncPlatformOrders } from '#server/use-cases/sync-platform-orders.ts'
import type { ExchangeShop } from '#shared/exchange-platforms.ts'

/**
 * Platform orders exchanged for courses (issue 14 §2): the adapters of the platforms that are on (real, or the
 * simulators), and the use cases bound to them under the names the routes and the sync job call.
 */
export function createExchangeServices(deps: {
  config: Config
  db: Db
  now: () => Date
  fetch: PlatformFetch
  events: BusinessEvents
}) {
  const { config, db, now, events } = deps
  const adapters = createPlatformAdapters(config.platforms, {
    fetch: deps.fetch,
    now,
    // Tests do not wait Douyin's 5 s between verify retries.
    ...(config.env === 'test' ? { retryDelaysMs: [0, 0] } : {}),
  })
  const ucDeps = { db, now, adapters, events }
  return {
    platformAdapters: adapters,
    exchange: {
      exchange: (memberId: number, group: ExchangeShop, pasted: string) =>
        exchangePlatformOrder(ucDeps, memberId, group, pasted),
      unexchanged: (memberId: number, platforms: Parameters<typeof unexchangedOrdersOf>[2]) =>
        unexchangedOrdersOf(db, memberId, platforms),
      push: (...a: Parameters<typeof handlePlatformPush> extends [unknown, ...infer R] ? R : never) =>
        handlePlatformPush(ucDeps, ...a),
    },
    exchangeAdmin: createExchangeAdmin({ db, now }),
    revokeExchangeRecord: (id: number, reason: string) => revokeExchangeRecord(ucDeps, id, reason),
    /** The periodic sync (server/main.ts starts it) and its lock. */
    platformSync: {
      withTryLock: <T>(key: number, fn: () => Promise<T>) => withTryLock(db, key, fn),
      sync: (lookbackMs: number) => syncPlatformOrders(ucDeps, lookbackMs),
    },
  }
}
