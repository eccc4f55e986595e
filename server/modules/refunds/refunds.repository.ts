import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { tableList } from '#server/db/list.ts'
import { eqIfGiven, inPeriod, rowsBy, rowsWhereIn, transition } from '#server/db/rows.ts'
import type { ProviderName as PaymentProviderName } from '#server/integrations/payments/payments.ts'
import { refunds, type RefundState } from '#server/db/schema/refunds.ts'

export type RefundRow = typeof refunds.$inferSelect
export type NewRefund = typeof refunds.$inferInsert

export const { insert: insertRefund, find: findRefund } = rowsBy(refunds, refunds.id)
export const { find: findRefundByNo, lock: lockRefundByNo } = rowsBy(refunds, refunds.refundNo)

/** What a member's order list shows of a refund (refunds.service.ts `toRefundBrief`). */
export type RefundBriefRow = Pick<
  RefundRow,
  'orderId' | 'refundNo' | 'state' | 'amountFen' | 'reason' | 'decisionNote' | 'lastError'
>

/**
 * For a statement the orders module writes as text (the member's order list, one statement a page): the newest
 * refund of the order `orderId` (an SQL expression, such as `o.id`) as a json object of `RefundBriefRow`'s fields,
 * or null; one probe of `refunds_order_idx`.
 */
export function latestRefundSql(orderId: string): string {
  return `(select json_build_object('orderId', ref_r.order_id, 'refundNo', ref_r.refund_no, 'state', ref_r.state,
      'amountFen', ref_r.amount_fen, 'reason', ref_r.reason, 'decisionNote', ref_r.decision_note,
      'lastError', ref_r.last_error)
    from refunds ref_r where ref_r.order_id = ${orderId} order by ref_r.id desc limit 1)`
}

/**
 * Whether an order line (`item`, the SQL name of an order_items row) was given back by a refund that succeeded: a
 * boolean expression over the refunds of its lines (a refund of the whole remainder has no lines: its order is
 * `refunded`). One probe of refund_lines_order_idx per line and of each of its refunds by id; `offset 0` keeps
 * the planner from joining every refund instead.
 */
export function refundedLineSql(item: string): string {
  return `exists (select 1 from refund_lines ref_l
    where ref_l.order_id = ${item}.order_id and ref_l.order_item_id = ${item}.id
      and (select ref_r.state from refunds ref_r where ref_r.id = ref_l.refund_id) = 'succeeded' offset 0)`
}

export async function refundsOfOrder(db: DbOrTx, orderId: number) {
  return db.select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.id))
}

export type RefundChanges = Partial<
  Pick<
    RefundRow,
    | 'providerRefundId'
    | 'completedAt'
    | 'lastError'
    | 'sentAt'
    | 'decidedAt'
    | 'decidedBy'
    | 'decisionNote'
    | 'amountFen'
  >
>

/** Conditional refund transition, like orders: null when the refund was no longer in `from`. */
export async function transitionRefund(
  db: DbOrTx,
  id: number,
  from: readonly RefundState[],
  to: RefundState,
  set: RefundChanges,
  now: Date,
) {
  return transition(db, refunds, id, from, { ...set, state: to, updatedAt: now })
}

export async function noteRefundAttempt(
  db: DbOrTx,
  id: number,
  set: { sentAt: Date; providerRefundId?: string | null; lastError?: string | null },
  now: Date,
) {
  await db
    .update(refunds)
    .set({ ...set, updatedAt: now })
    .where(and(eq(refunds.id, id), eq(refunds.state, 'processing')))
}

/** Refunds to send, or to send again because no final answer came: never sent, or sent before `sentBefore`. */
export async function findRefundsToSend(db: DbOrTx, sentBefore: Date, limit: number) {
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.state, 'processing'), or(isNull(refunds.sentAt), lt(refunds.sentAt, sentBefore))))
    .orderBy(asc(refunds.id))
    .limit(limit)
}

/** What the operators' refund list filters by. */
export interface StaffRefundFilter {
  state?: RefundState
  refundNo?: string
  memberId?: number
}

const staffWhere = (f: StaffRefundFilter) =>
  and(
    f.state ? eq(refunds.state, f.state) : undefined,
    f.refundNo ? eq(refunds.refundNo, f.refundNo) : undefined,
    eqIfGiven(refunds.memberId, f.memberId),
  )

const staffSortable = { created_at: refunds.id, amount_fen: refunds.amountFen }

/** Refunds for operators, one page and the total (their orders and members are looked up at those modules). */
export const refundList = tableList(refunds, staffWhere, staffSortable)

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

/** Refunds whose `column` (refund number, provider transaction) is one of `values`; read in chunks. */
export function findRefundsWhereIn(db: DbOrTx, key: 'refundNo' | 'providerTxnId', values: readonly string[]) {
  return rowsWhereIn(db, refunds, refunds[key], values)
}

/**
 * Refunds through `provider` that succeeded within [from, to) (refunds_completed_idx: its predicate written out,
 * since a generic plan, server/db/database.ts, uses a partial index only for a literal).
 */
export async function findSucceededBetween(db: DbOrTx, provider: PaymentProviderName, from: Date, to: Date) {
  return db
    .select()
    .from(refunds)
    .where(
      and(eq(refunds.provider, provider), sql`${refunds.state} = 'succeeded'`, inPeriod(refunds.completedAt, from, to)),
    )
}
