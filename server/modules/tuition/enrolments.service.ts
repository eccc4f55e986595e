import type { DbOrTx } from '#server/db/database.ts'
import type { EnrolmentState } from '#server/db/schema/tuition.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { snakeView } from '#server/http/snake-view.ts'
import { enrolmentStateNames } from '#shared/tuition-names.ts'
import { contractOfEnrolment, insertContract } from './contracts.repository.ts'
import {
  findEnrolment,
  findOpenEnrolment,
  insertEnrolment,
  insertEnrolmentEvent,
  insertSchedule,
  lockEnrolment,
  lockSchedulePayment,
  markSchedulePaid,
  memberEnrolments,
  scheduleOf,
  transitionEnrolment,
  type EnrolmentRow,
  type SchedulePaymentRow,
} from './enrolments.repository.ts'
import { findPlan, findVersion, type PlanRow } from './programme.repository.ts'
import { buildSchedule, pastGrace, scheduleStatus } from './tuition-rules.ts'

// Enrolments (issue 15): the state machine offered → signed → paying → enrolled (⇄ paused, ⇄ overdue) → exited,
// each transition in enrolment_events, and the payment schedule.

const DAY_MS = 86_400_000

export type { EnrolmentRow, SchedulePaymentRow }

/** Appends one event to the enrolment's log. */
export function logEnrolment(
  tx: DbOrTx,
  e: { id: number; from: EnrolmentState | null; to: EnrolmentState; reason: string; actor: string; at: Date },
  data?: Record<string, unknown>,
) {
  return insertEnrolmentEvent(tx, {
    enrolmentId: e.id,
    fromState: e.from,
    toState: e.to,
    reason: e.reason,
    actor: e.actor,
    data: data ?? null,
    createdAt: e.at,
  })
}

/** The contract was signed: offered → signed (a plan paid before signing, when none is required, stays as it is). */
export async function markSigned(tx: DbOrTx, id: number, actor: string, at: Date, data: Record<string, unknown>) {
  if (await transitionEnrolment(tx, id, ['offered'], 'signed', {}, at))
    await logEnrolment(tx, { id, from: 'offered', to: 'signed', reason: 'contract_signed', actor, at }, data)
}

/** A plan staff may offer (NotFound / NotForSale otherwise). */
export async function offerablePlan(db: DbOrTx, planId: number) {
  const plan = await findPlan(db, planId)
  if (!plan) throw new AppError(Codes.NotFound, `学费方案 ${planId} 不存在`, { field: 'plan_id' })
  if (!plan.active) throw new AppError(Codes.NotForSale, '该学费方案已停用')
  return plan
}

/**
 * Offers a member a system course under a plan (staff): the enrolment (state offered), its payment schedule from
 * today, and the contract to sign (a published template version; required when the plan asks for a contract).
 * Conflict when the member already has an open enrolment in the course.
 */
export async function openEnrolment(
  tx: DbOrTx,
  o: { memberId: number; plan: PlanRow; versionId: number | null; leadId: number | null; staffId: number; at: Date },
) {
  if (o.plan.contractRequired && o.versionId === null)
    throw new AppError(Codes.BadRequest, '该方案需要签署合同，请选择合同模板', { field: 'template_version_id' })
  if (o.versionId !== null) {
    const version = await findVersion(tx, o.versionId)
    if (!version?.publishedAt)
      throw new AppError(Codes.BadRequest, '请选择已发布的合同模板版本', { field: 'template_version_id' })
  }
  const enrolment = await insertEnrolment(tx, {
    memberId: o.memberId,
    courseId: o.plan.courseId,
    planId: o.plan.id,
    templateVersionId: o.versionId,
    leadId: o.leadId,
    state: 'offered',
    offeredBy: o.staffId,
    createdAt: o.at,
    updatedAt: o.at,
  })
  if (!enrolment) throw new AppError(Codes.Conflict, '该学员已报名这门体系课')
  const schedule = await insertSchedule(
    tx,
    buildSchedule(o.plan, o.at).map((p) => ({ ...p, enrolmentId: enrolment.id })),
  )
  const contract =
    o.versionId === null
      ? null
      : await insertContract(tx, {
          enrolmentId: enrolment.id,
          memberId: o.memberId,
          templateVersionId: o.versionId,
          createdAt: o.at,
        })
  await logEnrolment(
    tx,
    { id: enrolment.id, from: null, to: 'offered', reason: 'offered', actor: `admin:${o.staffId}`, at: o.at },
    { plan_id: o.plan.id, lead_id: o.leadId, contract_id: contract?.id ?? null },
  )
  return { enrolment, schedule, contractId: contract?.id ?? null }
}

/** The member's own enrolment (NotFound for anyone else's). */
export async function ownEnrolment(db: DbOrTx, memberId: number, id: number) {
  const row = await findEnrolment(db, id)
  if (!row || row.memberId !== memberId) throw new AppError(Codes.NotFound, '报名记录不存在')
  return row
}

/** The order target of a scheduled payment: one pending order per payment (orders' unique index). */
export const tuitionTarget = (paymentId: number) => `tuition:${paymentId}`

/** The order targets of an enrolment's payments still due (their pending orders close when the member exits). */
export async function dueTuitionTargets(db: DbOrTx, enrolmentId: number) {
  return (await scheduleOf(db, [enrolmentId])).filter((p) => p.state === 'due').map((p) => tuitionTarget(p.id))
}

const exitAsked = (e: EnrolmentRow) => e.state === 'exited' || e.exitRequestedAt !== null

/**
 * Inside the tuition checkout's transaction: the enrolment locked and checked again, so that an exit asked for
 * since the first check refuses the payment (the exit locks it too, and closes the orders it finds).
 */
export async function lockPayableEnrolment(tx: DbOrTx, enrolmentId: number) {
  const e = await lockEnrolment(tx, enrolmentId)
  if (!e) throw new AppError(Codes.NotFound, '报名不存在')
  if (e.state === 'exited') throw new AppError(Codes.EnrolmentStateInvalid, '已退学，不能再缴纳学费')
  if (exitAsked(e)) throw new AppError(Codes.EnrolmentStateInvalid, '已申请退学，不能再缴纳学费')
}

/**
 * Whether the money of a tuition order (its target) can still pay its scheduled payment: the payment is still
 * due and the enrolment has not asked to exit. False: a late payment of a closed order goes back.
 */
export async function tuitionStillPayable(tx: DbOrTx, target: string) {
  const payment = await lockSchedulePayment(tx, Number(target.slice('tuition:'.length)))
  if (!payment || payment.state !== 'due') return false
  const e = await findEnrolment(tx, payment.enrolmentId)
  return e !== null && !exitAsked(e)
}

/**
 * The scheduled payment a member pays now: the chosen one, or the next due one. Refused when the plan needs a
 * signed contract that is not signed (ContractRequired), when the enrolment has ended, or when it is paid.
 */
export async function tuitionToPay(db: DbOrTx, memberId: number, enrolmentId: number, paymentId?: number) {
  const enrolment = await ownEnrolment(db, memberId, enrolmentId)
  if (exitAsked(enrolment)) throw new AppError(Codes.EnrolmentStateInvalid, '已申请退学，不能再缴纳学费')
  const plan = (await findPlan(db, enrolment.planId))!
  if (plan.contractRequired && !(await contractOfEnrolment(db, enrolment.id))?.signedAt)
    throw new AppError(Codes.ContractRequired)
  const schedule = await scheduleOf(db, [enrolment.id])
  const payment =
    paymentId === undefined ? schedule.find((p) => p.state === 'due') : schedule.find((p) => p.id === paymentId)
  if (!payment) {
    if (paymentId !== undefined) throw new AppError(Codes.NotFound, '这笔学费不存在', { field: 'payment_id' })
    throw new AppError(Codes.TuitionPaid, '学费已全部缴清')
  }
  if (payment.state !== 'due') throw new AppError(Codes.TuitionPaid)
  return { enrolment, plan, payment }
}

/** What the schedule says about access: whether the opening payment is paid, and whether anything is left. */
function progressOf(schedule: SchedulePaymentRow[]) {
  return {
    opened: schedule.some((p) => p.opensAccess && p.state !== 'due'),
    complete: schedule.every((p) => p.state !== 'due'),
  }
}

/**
 * A tuition order was paid (inside the transaction that marks it paid): its scheduled payment becomes paid, once.
 * The first payment that opens access starts the programme (expiry = now + the plan's study days); a payment that
 * clears an overdue plan reopens it. Returns the access to grant (the programme until the expiry), or null when
 * access does not open or this payment was applied before.
 */
export async function settleTuition(tx: DbOrTx, paymentId: number, orderNo: string, at: Date) {
  const locked = await lockSchedulePayment(tx, paymentId)
  if (!locked) return null
  const enrolment = (await lockEnrolment(tx, locked.enrolmentId))!
  if (!(await markSchedulePaid(tx, paymentId, orderNo, at))) return null
  const plan = (await findPlan(tx, enrolment.planId))!
  const { opened, complete } = progressOf(await scheduleOf(tx, [enrolment.id]))
  const actor = `order:${orderNo}`
  const data = { payment_id: paymentId, order_no: orderNo, amount_fen: locked.amountFen }
  if (!opened || enrolment.state === 'exited') {
    await logEnrolment(
      tx,
      { id: enrolment.id, from: enrolment.state, to: enrolment.state, reason: 'paid', actor, at },
      data,
    )
    return null
  }
  const starts = enrolment.startedAt === null
  const expiresAt = enrolment.expiresAt ?? new Date(at.getTime() + plan.studyDays * DAY_MS)
  const to: EnrolmentState = enrolment.state === 'paused' ? 'paused' : complete ? 'enrolled' : 'paying'
  const moved = await transitionEnrolment(
    tx,
    enrolment.id,
    [enrolment.state],
    to,
    starts ? { startedAt: at, expiresAt } : {},
    at,
  )
  await logEnrolment(tx, { id: enrolment.id, from: enrolment.state, to, reason: 'paid', actor, at }, data)
  if (!moved || to === 'paused') return null
  return { memberId: enrolment.memberId, courseId: enrolment.courseId, enrolmentId: enrolment.id, until: expiresAt }
}

/** A scheduled payment as the learner's screens show it (amounts in fen; the screen shows yuan). */
function toScheduleView(p: SchedulePaymentRow, now: Date) {
  return { ...snakeView(p), status: scheduleStatus(p, now) }
}

function toEnrolmentView(e: EnrolmentRow, plan: PlanRow | undefined, schedule: SchedulePaymentRow[], now: Date) {
  const own = schedule.filter((p) => p.enrolmentId === e.id)
  return {
    ...snakeView(e),
    huabei: plan?.huabeiAllowed ? { periods: plan.huabeiPeriods, fee_payer: plan.huabeiFeePayer } : null,
    total_fen: own.reduce((s, p) => s + p.amountFen, 0),
    paid_fen: own.filter((p) => p.state !== 'due').reduce((s, p) => s + p.amountFen, 0),
    schedule: own.map((p) => toScheduleView(p, now)),
  }
}

/** The member's enrolments with their schedules (/order3, /PayAmount), newest first. */
export async function memberTuition(db: DbOrTx, memberId: number, now: Date) {
  const rows = await memberEnrolments(db, memberId)
  const schedule = await scheduleOf(
    db,
    rows.map((r) => r.id),
  )
  const plans = await Promise.all([...new Set(rows.map((r) => r.planId))].map((id) => findPlan(db, id)))
  const planOf = new Map(plans.flatMap((p) => (p ? [[p.id, p] as const] : [])))
  return rows.map((r) => toEnrolmentView(r, planOf.get(r.planId), schedule, now))
}

const enrolmentStatusNames = { none: '未报名', ...enrolmentStateNames } as const

/**
 * GET /course/bs: the member's enrolment status in a system course (none, offered, signed, paying, enrolled,
 * paused, overdue, exited), with the contract to sign and the next payment.
 */
export async function enrolmentStatus(db: DbOrTx, memberId: number | null, courseId: number, now: Date) {
  const none = { status: 'none' as const, label: enrolmentStatusNames.none, enrolment_id: null, contract_id: null }
  if (memberId === null) return { ...none, next_payment: null }
  const open =
    (await findOpenEnrolment(db, memberId, courseId)) ??
    (await memberEnrolments(db, memberId)).find((e) => e.courseId === courseId) ??
    null
  if (!open) return { ...none, next_payment: null }
  const [schedule, contract] = await Promise.all([scheduleOf(db, [open.id]), contractOfEnrolment(db, open.id)])
  const next = schedule.find((p) => p.state === 'due')
  return {
    status: open.state,
    label: enrolmentStatusNames[open.state],
    enrolment_id: open.id,
    contract_id: contract?.id ?? null,
    next_payment: next ? toScheduleView(next, now) : null,
  }
}

/**
 * Pauses an enrolment whose payment is overdue past the grace period (the sweep): paying/enrolled → overdue.
 * True when it moved (the caller ends access now, without revoking it).
 */
export async function markOverdue(tx: DbOrTx, enrolmentId: number, now: Date, graceDays: number) {
  const enrolment = await lockEnrolment(tx, enrolmentId)
  if (!enrolment || !['paying', 'enrolled'].includes(enrolment.state)) return false
  const late = (await scheduleOf(tx, [enrolmentId])).filter((p) => pastGrace(p, now, graceDays))
  if (late.length === 0) return false
  await transitionEnrolment(tx, enrolmentId, [enrolment.state], 'overdue', {}, now)
  await logEnrolment(
    tx,
    { id: enrolmentId, from: enrolment.state, to: 'overdue', reason: 'overdue', actor: 'system', at: now },
    { payments: late.map((p) => p.id), grace_days: graceDays },
  )
  return true
}
