import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { videos } from '#server/db/schema/catalogue.ts'
import { orders } from '#server/db/schema/orders.ts'
import { refunds, type RefundState } from '#server/db/schema/refunds.ts'
import { studyProgress } from '#server/db/schema/learning.ts'
import { members } from '#server/db/schema/members.ts'

/**
 * How much of these courses the member has watched, in percent of their total length: a finished video counts
 * whole, another up to its saved position. 0 for courses without lengths.
 */
export async function watchedPercent(db: DbOrTx, memberId: number, courseIds: number[]) {
  if (courseIds.length === 0) return 0
  const result = await db.execute<{ watched: number | null; total: number | null }>(sql`
    select
      (select coalesce(sum(case when p.finished_at is not null then v.duration_seconds else least(p.position, v.duration_seconds) end), 0)
         from ${studyProgress} p join ${videos} v on v.id = p.video_id
         where p.member_id = ${memberId} and p.course_id = any(${sql.param(courseIds)}::int[]))::int as watched,
      (select coalesce(sum(v.duration_seconds), 0) from ${videos} v where v.course_id = any(${sql.param(courseIds)}::int[]))::int as total`)
  const row = result.rows[0]
  if (!row?.total) return 0
  return Math.min(100, Math.floor(((row.watched ?? 0) * 100) / row.total))
}

export async function refundsOfOrder(db: DbOrTx, orderId: number) {
  return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.id))
}

export async function findRefundByNo(db: DbOrTx, refundNo: string) {
  const [row] = await db.select().from(refunds).where(eq(refunds.refundNo, refundNo))
  return row ?? null
}

/** Refunds for operators, newest first, with the order number and the member's phone. */
export async function listRefundsForStaff(
  db: DbOrTx,
  filter: { states?: readonly RefundState[]; before?: number; limit: number },
) {
  return db
    .select({
      refund: refunds,
      orderNo: orders.orderNo,
      orderTitle: orders.title,
      orderAmountFen: orders.amountFen,
      phone: members.phone,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(members, eq(members.id, refunds.memberId))
    .where(
      and(
        filter.states ? inArray(refunds.state, [...filter.states]) : undefined,
        filter.before === undefined ? undefined : lt(refunds.id, filter.before),
      ),
    )
    .orderBy(desc(refunds.id))
    .limit(filter.limit)
}

/**
 * A failed refund goes back to processing to be sent again (same number), recorded with who and when: null when
 * it was no longer failed (another operator's retry got there first).
 */
export async function markRefundRetried(db: DbOrTx, id: number, staffId: number, at: Date) {
  const [row] = await db
    .update(refunds)
    .set({
      state: 'processing',
      sentAt: null,
      retriedBy: staffId,
      retriedAt: at,
      retries: sql`${refunds.retries} + 1`,
      updatedAt: at,
    })
    .where(and(eq(refunds.id, id), eq(refunds.state, 'failed')))
    .returning()
  return row ?? null
}
