import { and, asc, desc, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { rowsBy, transition } from '#server/db/rows.ts'
import { enrolmentEvents, enrolments, tuitionPayments, type EnrolmentState } from '#server/db/schema/tuition.ts'

export type EnrolmentRow = typeof enrolments.$inferSelect
export type NewEnrolment = typeof enrolments.$inferInsert
export type SchedulePaymentRow = typeof tuitionPayments.$inferSelect

export const { find: findEnrolment, lock: lockEnrolment } = rowsBy(enrolments, enrolments.id)

/** A new enrolment, or null when the member already has one open for this course (the unique index). */
export async function insertEnrolment(db: DbOrTx, row: NewEnrolment) {
  const [created] = await db
    .insert(enrolments)
    .values(row)
    .onConflictDoNothing({ target: [enrolments.memberId, enrolments.courseId], where: sql`state <> 'exited'` })
    .returning()
  return created ?? null
}

/** The member's enrolment in a course that is not exited, if any. */
export async function findOpenEnrolment(db: DbOrTx, memberId: number, courseId: number) {
  const [row] = await db
    .select()
    .from(enrolments)
    .where(and(eq(enrolments.memberId, memberId), eq(enrolments.courseId, courseId), ne(enrolments.state, 'exited')))
  return row ?? null
}

export function memberEnrolments(db: DbOrTx, memberId: number) {
  return db.select().from(enrolments).where(eq(enrolments.memberId, memberId)).orderBy(desc(enrolments.id))
}

type EnrolmentPatch = Partial<
  Pick<
    EnrolmentRow,
    | 'startedAt'
    | 'expiresAt'
    | 'pausedAt'
    | 'pauseUntil'
    | 'pausedDays'
    | 'exitRefundFen'
    | 'exitRequestedAt'
    | 'exitedAt'
  >
>

/** The one way an enrolment changes state: only from one of `from` (null when another change came first). */
export function transitionEnrolment(
  db: DbOrTx,
  id: number,
  from: readonly EnrolmentState[],
  to: EnrolmentState,
  set: EnrolmentPatch,
  at: Date,
) {
  return transition(db, enrolments, id, from, { ...set, state: to, updatedAt: at })
}

export async function patchEnrolment(db: DbOrTx, id: number, set: EnrolmentPatch, at: Date) {
  const [row] = await db
    .update(enrolments)
    .set({ ...set, updatedAt: at })
    .where(eq(enrolments.id, id))
    .returning()
  return row ?? null
}

export async function insertEnrolmentEvent(db: DbOrTx, e: typeof enrolmentEvents.$inferInsert) {
  await db.insert(enrolmentEvents).values(e)
}

export async function insertSchedule(db: DbOrTx, rows: (typeof tuitionPayments.$inferInsert)[]) {
  return db.insert(tuitionPayments).values(rows).returning()
}

export function scheduleOf(db: DbOrTx, enrolmentIds: number[]) {
  if (enrolmentIds.length === 0) return Promise.resolve([] as SchedulePaymentRow[])
  return db
    .select()
    .from(tuitionPayments)
    .where(inArray(tuitionPayments.enrolmentId, enrolmentIds))
    .orderBy(asc(tuitionPayments.enrolmentId), asc(tuitionPayments.seq))
}

export const { find: findSchedulePayment, lock: lockSchedulePayment } = rowsBy(tuitionPayments, tuitionPayments.id)

/** Marks a scheduled payment paid by this order, once (null when it was paid already). */
export async function markSchedulePaid(db: DbOrTx, id: number, orderNo: string, at: Date) {
  const [row] = await db
    .update(tuitionPayments)
    .set({ state: 'paid', orderNo, paidAt: at })
    .where(and(eq(tuitionPayments.id, id), eq(tuitionPayments.state, 'due')))
    .returning()
  return row ?? null
}

/**
 * Records the Huabei periods chosen for a due payment's order (null: none). True when the choice changed (the
 * pending order, made under the old choice, is not reused).
 */
export async function setHuabeiChoice(db: DbOrTx, id: number, periods: number | null) {
  const rows = await db
    .update(tuitionPayments)
    .set({ huabeiPeriods: periods })
    .where(and(eq(tuitionPayments.id, id), sql`${tuitionPayments.huabeiPeriods} is distinct from ${periods}`))
    .returning({ id: tuitionPayments.id })
  return rows.length > 0
}

export async function setDueAt(db: DbOrTx, id: number, dueAt: Date) {
  const [row] = await db
    .update(tuitionPayments)
    .set({ dueAt })
    .where(and(eq(tuitionPayments.id, id), eq(tuitionPayments.state, 'due')))
    .returning()
  return row ?? null
}

export async function addScheduleRefund(db: DbOrTx, id: number, fen: number) {
  await db
    .update(tuitionPayments)
    .set({
      refundedFen: sql`${tuitionPayments.refundedFen} + ${fen}`,
      state: sql`case when ${tuitionPayments.refundedFen} + ${fen} >= ${tuitionPayments.amountFen} then 'refunded' else ${tuitionPayments.state} end`,
    })
    .where(eq(tuitionPayments.id, id))
}

/**
 * Enrolments with a payment due before `before` (now less the grace period) that are still running: what the
 * overdue sweep pauses.
 */
export async function enrolmentsOverdue(db: DbOrTx, before: Date, limit: number) {
  const rows = await db
    .selectDistinct({ id: tuitionPayments.enrolmentId })
    .from(tuitionPayments)
    .innerJoin(enrolments, eq(enrolments.id, tuitionPayments.enrolmentId))
    .where(
      and(
        // A literal, so that generic plans may use the partial index tuition_payments_due_idx.
        sql`${tuitionPayments.state} = 'due'`,
        isNotNull(tuitionPayments.dueAt),
        lt(tuitionPayments.dueAt, before),
        inArray(enrolments.state, ['enrolled', 'paying']),
      ),
    )
    .limit(limit)
  return rows.map((r) => r.id)
}

/** Paused enrolments whose pause ended before `now`. */
export async function enrolmentsPausedUntil(db: DbOrTx, now: Date, limit: number) {
  const rows = await db
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(sql`${enrolments.state} = 'paused'`, lt(enrolments.pauseUntil, now)))
    .limit(limit)
  return rows.map((r) => r.id)
}
