import type { DbOrTx } from '#server/db/database.ts'
import type { OrderState } from '#server/db/schema/orders.ts'
import { recordOrderEvent, transitionOrder, type OrderRow } from '#server/modules/orders/orders.service.ts'
import { releaseOrder } from './release-order.ts'

type EventData = Record<string, unknown>

/**
 * An order's event log as one workflow step writes it, inside the step's transaction: every event it records has
 * the step's actor and moment.
 */
export function orderEvents(tx: DbOrTx, actor: string, at: Date) {
  const record = (orderId: number, from: OrderState, to: OrderState, reason: string, data: EventData) =>
    recordOrderEvent(tx, { orderId, fromState: from, toState: to, reason, actor, data, createdAt: at })
  return {
    /** The order moved from `from` to `to`, for `reason`; `data` says what came with the move. */
    moved: record,
    /** A decision about the order that leaves it where it is (a refund asked for, turned down). */
    noted: (order: Pick<OrderRow, 'id' | 'state'>, reason: string, data: EventData) =>
      record(order.id, order.state, order.state, reason, data),
  }
}

/**
 * Closes a pending order (expired, replaced by a new checkout, or its enrolment exiting) inside the caller's transaction: the order
 * closes, its coupon and points come back (`releaseOrder`) and the close is recorded with `data` and what was
 * released. Null (nothing done) when the order was no longer pending.
 */
export async function closePendingOrder(
  tx: DbOrTx,
  orderId: number,
  reason: 'expired' | 'replaced' | 'enrolment_exit',
  by: { actor: string; at: Date; data?: EventData },
) {
  const { actor, at } = by
  const closed = await transitionOrder(tx, orderId, ['pending'], 'closed', { closedAt: at }, at)
  if (!closed) return null
  const released = await releaseOrder(tx, closed, at, actor)
  await orderEvents(tx, actor, at).moved(orderId, 'pending', 'closed', reason, { ...by.data, ...released })
  return closed
}
