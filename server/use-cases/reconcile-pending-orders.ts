import { findUnansweredPending } from '#server/modules/orders/orders.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { reconcileOrder } from './reconcile-order.ts'

/** A pending order is asked about at the provider once it is this old and no notification came. */
const RECONCILE_AFTER_MS = 2 * 60_000

/** The reconciliation sweep: asks the provider about pending orders whose notification is overdue. */
export async function reconcilePendingOrders(deps: CommerceDeps, limit = 50) {
  let paid = 0
  const createdBefore = new Date(deps.now().getTime() - RECONCILE_AFTER_MS)
  for (const order of await findUnansweredPending(deps.db, createdBefore, deps.now(), limit)) {
    if ((await reconcileOrder(deps, order)) === 'paid') paid++
  }
  return paid
}
