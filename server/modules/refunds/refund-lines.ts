import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { DbOrTx } from '#server/db/database.ts'
import { coursesHeldFromOrder } from '#server/modules/access/access.service.ts'
import { courseVideoDurations } from '#server/modules/catalogue/catalogue.service.ts'
import { watchedPercent } from '#server/modules/learning/learning.service.ts'
import { orderItems, type OrderRow } from '#server/modules/orders/orders.service.ts'
import { allocate } from '#shared/money.ts'
import * as repo from './refund-lines.repository.ts'
import type { RefundLineRow } from './refund-lines.repository.ts'
import type { RefundLineOption, RefundLineView } from './refunds.schema.ts'

// Per-course refunds of bundle and favourites orders (issue 10 §1): which lines a member may still give back,
// each line's share of what was paid, and the lines a refund covers.

/** Orders whose courses may be refunded one by one: several courses bought together. */
const LINE_KINDS: readonly OrderRow['kind'][] = ['bundle', 'favourites']

/**
 * Each item's share of what the order cost the member: the amount paid allocated over the items' prices in whole
 * fen (largest remainders), so the shares add up to exactly the amount paid, by item id. The same order always
 * gives the same shares, so refunds of different lines never add up to more than was paid.
 */
function lineShares(order: Pick<OrderRow, 'amountFen'>, items: readonly { id: number; priceFen: number }[]) {
  const parts = allocate(
    order.amountFen,
    items.map((i) => i.priceFen),
  )
  return new Map(items.map((item, n) => [item.id, parts[n]!]))
}

/**
 * The course lines of a bundle or favourites order with, for each, its share, how much of the course the member
 * watched and whether it can be refunded now: not watched past the rule, still held from this order (not taken
 * back or refunded as owned elsewhere) and not in another refund that is asked for, processing or done. Null for
 * an order that is not refunded course by course (one course, VIP, an amount).
 */
export async function lineOptions(
  db: DbOrTx,
  rules: Pick<Config['payments'], 'refundMaxWatchedPercent'>,
  order: OrderRow,
): Promise<z.infer<typeof RefundLineOption>[] | null> {
  if (!LINE_KINDS.includes(order.kind)) return null
  const items = await orderItems(db, [order.id])
  const courseItems = items.filter((i) => i.courseId !== null)
  if (courseItems.length < 2) return null
  const shares = lineShares(order, items)
  const courseIds = courseItems.map((i) => i.courseId!)
  const [held, taken, videos] = await Promise.all([
    coursesHeldFromOrder(db, order.orderNo),
    repo.findHeldItems(db, order.id),
    courseVideoDurations(db, courseIds),
  ])
  const takenBy = new Map(taken.map((t) => [t.orderItemId, t.state]))
  const options = []
  for (const item of courseItems) {
    const watched = await watchedPercent(
      db,
      order.memberId,
      videos.filter((v) => v.courseId === item.courseId),
    )
    const inRefund = takenBy.get(item.id)
    const state =
      inRefund === 'succeeded'
        ? ('refunded' as const)
        : inRefund
          ? ('requested' as const)
          : !held.has(item.courseId!)
            ? ('not_held' as const)
            : watched >= rules.refundMaxWatchedPercent
              ? ('watched' as const)
              : ('available' as const)
    options.push({
      item_id: item.id,
      course_id: item.courseId!,
      title: item.title,
      share_fen: shares.get(item.id)!,
      watched_percent: watched,
      state,
      refundable: state === 'available',
    })
  }
  return options
}

/** Records the lines a refund covers. */
export function recordRefundLines(
  tx: DbOrTx,
  refundId: number,
  orderId: number,
  lines: readonly z.infer<typeof RefundLineOption>[],
) {
  return repo.insertRefundLines(
    tx,
    lines.map((l) => ({
      refundId,
      orderId,
      orderItemId: l.item_id,
      courseId: l.course_id,
      title: l.title,
      amountFen: l.share_fen,
    })),
  )
}

/** The lines of these refunds as the API shows them, by refund id (refunds without lines are absent). */
export async function linesByRefund(db: DbOrTx, refundIds: readonly number[]) {
  const byRefund = new Map<number, z.infer<typeof RefundLineView>[]>()
  for (const l of await repo.findLinesOfRefunds(db, refundIds)) {
    const list = byRefund.get(l.refundId) ?? []
    list.push(toLineView(l))
    byRefund.set(l.refundId, list)
  }
  return byRefund
}

function toLineView(l: RefundLineRow): z.infer<typeof RefundLineView> {
  return { item_id: l.orderItemId, course_id: l.courseId, title: l.title, amount_fen: l.amountFen }
}

/**
 * Whether another refund that is asked for, processing or done holds one of `refundId`'s lines (a failed line
 * refund sent again must not return a course a later request returned).
 */
export async function linesHeldElsewhere(db: DbOrTx, orderId: number, refundId: number) {
  const [mine, others] = await Promise.all([
    repo.findLinesOfRefunds(db, [refundId]),
    repo.findHeldItems(db, orderId, refundId),
  ])
  const held = new Set(others.map((o) => o.orderItemId))
  return mine.some((l) => held.has(l.orderItemId))
}
