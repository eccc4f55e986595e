import { and, asc, eq, inArray, ne } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { refundLines, refunds, type RefundState } from '#server/db/schema/refunds.ts'

export type RefundLineRow = typeof refundLines.$inferSelect
export type NewRefundLine = typeof refundLines.$inferInsert

/** The refunds whose lines still hold their items: asked for, being sent, or done. */
const HOLDING: RefundState[] = ['requested', 'processing', 'succeeded']

export async function insertRefundLines(db: DbOrTx, rows: NewRefundLine[]) {
  if (rows.length === 0) return []
  return db.insert(refundLines).values(rows).returning()
}

/** Lines of these refunds, in order. */
export async function findLinesOfRefunds(db: DbOrTx, refundIds: readonly number[]) {
  if (refundIds.length === 0) return []
  return db
    .select()
    .from(refundLines)
    .where(inArray(refundLines.refundId, [...refundIds]))
    .orderBy(asc(refundLines.id))
}

/**
 * The items of an order held by a line of a refund that is requested, processing or succeeded (optionally not
 * counting refund `exceptRefundId`), with that refund's state.
 */
export async function findHeldItems(db: DbOrTx, orderId: number, exceptRefundId?: number) {
  return db
    .select({ orderItemId: refundLines.orderItemId, state: refunds.state })
    .from(refundLines)
    .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
    .where(
      and(
        eq(refundLines.orderId, orderId),
        inArray(refunds.state, HOLDING),
        exceptRefundId === undefined ? undefined : ne(refunds.id, exceptRefundId),
      ),
    )
}
