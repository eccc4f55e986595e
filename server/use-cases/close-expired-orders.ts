import { ProviderError, providerOf } from '#server/integrations/payments/payments.ts'
import { findExpiredPending } from '#server/modules/orders/orders.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { reconcileOrder } from './reconcile-order.ts'
import { closePendingOrder } from './order-steps.ts'

/**
 * The expiry sweep: closes pending orders past their expiry. A provider order is asked about first (a payment
 * found is confirmed instead) and closed at the provider; then the order closes with its coupon and points given
 * back (`closePendingOrder`), in one transaction. Returns how many orders it closed.
 */
export async function closeExpiredOrders(deps: CommerceDeps, limit = 50) {
  const { db, providers, now } = deps
  let closed = 0
  for (const order of await findExpiredPending(db, now(), limit)) {
    const provider = providerOf(order.payMethod)
    if (provider) {
      const state = await reconcileOrder(deps, order)
      if (state === 'paid' || state === 'error') continue
      try {
        await providers[provider].close(order.orderNo)
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err
        // Paid in the meantime: the next sweep (or the notification) applies it.
        continue
      }
    }
    const at = now()
    const done = await deps.transaction(async (tx) => {
      return (await closePendingOrder(tx, order.id, 'expired', { actor: 'system', at })) !== null
    })
    if (done) closed++
  }
  return closed
}
