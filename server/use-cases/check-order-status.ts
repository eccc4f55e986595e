import { providerOf } from '#server/integrations/payments/payments.ts'
import { findOrderByNo, findOwnOrder, orderItems, toOrderView } from '#server/modules/orders/orders.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { reconcileOrder } from './reconcile-order.ts'

/** The /payRedirect poll asks the provider at most this often per order. */
const POLL_QUERY_EVERY_MS = 3_000

/** When each order was last asked about at its provider by the poll (one map per process). */
export type PollTimes = Map<string, number>

/**
 * One of the member's orders for the /payRedirect poll (GET /pay/course?order_no=). While it is pending, the
 * provider is asked (at most every few seconds per order) so a member who came back before the notification sees
 * the payment at once.
 */
export async function checkOrderStatus(deps: CommerceDeps & { polled: PollTimes }, memberId: number, orderNo: string) {
  const { db, polled } = deps
  let order = await findOwnOrder(db, memberId, orderNo)
  const key = order.orderNo
  if (
    order.state === 'pending' &&
    providerOf(order.payMethod) &&
    (polled.get(key) ?? 0) + POLL_QUERY_EVERY_MS <= Date.now()
  ) {
    polled.set(key, Date.now())
    if (polled.size > 10_000) polled.clear()
    if ((await reconcileOrder(deps, order)) === 'paid') order = (await findOrderByNo(db, key))!
  }
  return toOrderView(order, await orderItems(db, [order.id]))
}
