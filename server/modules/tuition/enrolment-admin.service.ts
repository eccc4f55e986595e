import type { DbOrTx } from '#server/db/database.ts'
import type { EnrolmentState } from '#server/db/schema/tuition.ts'
import { pageFrom, parseSort, type PageRequest } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import { snakeView } from '#server/http/snake-view.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberIdFromSearch, memberPhones } from '#server/modules/members/members.service.ts'
import { enrolmentStateNames } from '#shared/tuition-names.ts'
import { fenToYuan } from '#shared/money.ts'
import { beijingDateTime } from '#shared/time.ts'
import { contractOfEnrolment } from './contracts.repository.ts'
import {
  enrolmentList,
  enrolmentNames,
  eventsOf,
  planTitles,
  type EnrolmentFilter,
} from './enrolment-admin.repository.ts'
import { findEnrolment, scheduleOf, type EnrolmentRow, type SchedulePaymentRow } from './enrolments.repository.ts'
import { exitQuote } from './exit.service.ts'
import { scheduleStatus } from './tuition-rules.ts'

// Enrolments in the operators' console (issue 15): the paged list with its CSV, and one enrolment with its
// schedule, event log, contract and the exit refund waiting for approval.

type EnrolmentQuery = PageRequest & {
  sort: 'created_at' | 'updated_at' | '-created_at' | '-updated_at'
  state?: EnrolmentState
  course_id?: number
  q?: string
}

async function filterOf(db: DbOrTx, q: EnrolmentQuery): Promise<EnrolmentFilter> {
  const text = q.q?.trim()
  return {
    state: q.state,
    courseId: q.course_id,
    ...(text && { text: { q: text, memberId: await memberIdFromSearch(db, text) } }),
  }
}

/** The rows of a page as the console shows them: who, which course and plan, how much is paid, what is due next. */
async function staffRows(db: DbOrTx, rows: EnrolmentRow[], now: Date) {
  const [phones, titles, plans, names, schedule] = await Promise.all([
    memberPhones(db, idsOf(rows, 'memberId')),
    courseTitlesByIds(db, idsOf(rows, 'courseId')),
    planTitles(db, idsOf(rows, 'planId')),
    enrolmentNames(db, rows),
    scheduleOf(db, idsOf(rows, 'id')),
  ])
  return rows.map((e) => {
    const own = schedule.filter((p) => p.enrolmentId === e.id)
    const next = own.find((p) => p.state === 'due')
    return {
      id: e.id,
      member_id: e.memberId,
      phone: phones.get(e.memberId) ?? null,
      name: names.get(e.id) ?? null,
      course_id: e.courseId,
      course_title: titles.get(e.courseId)?.title ?? '',
      plan_id: e.planId,
      plan_title: plans.get(e.planId) ?? '',
      state: e.state,
      total_fen: own.reduce((s, p) => s + p.amountFen, 0),
      // Kept: what was paid less what went back (an exit refunds payment by payment).
      paid_fen: own.filter((p) => p.state !== 'due').reduce((s, p) => s + p.amountFen - p.refundedFen, 0),
      next_due_at: next?.dueAt?.toISOString() ?? null,
      overdue: own.some((p) => scheduleStatus(p, now) === 'overdue'),
      exit_requested_at: e.exitRequestedAt?.toISOString() ?? null,
      exit_refund_fen: e.exitRefundFen,
      created_at: e.createdAt.toISOString(),
    }
  })
}

const ENROLMENT_CSV_HEADER = [
  '报名ID',
  '会员ID',
  '手机号',
  '姓名',
  '课程',
  '学费方案',
  '状态',
  '总学费(元)',
  '已缴(元)',
  '下次到期',
  '报名时间',
]

/** Enrolments for staff: by state, course and a name or phone (GET /api/admin/enrolments, the list pattern). */
export async function enrolmentPage(db: DbOrTx, q: EnrolmentQuery, now: Date) {
  const filter = await filterOf(db, q)
  const sort = parseSort(q.sort)
  return pageFrom(
    q,
    (w) => enrolmentList.page(db, filter, sort, w),
    () => enrolmentList.count(db, filter),
    (rows) => staffRows(db, rows, now),
  )
}

/** The same list for the CSV export (ENROLMENT_CSV_HEADER): a batch at `offset`, and its cells (yuan, Beijing time). */
export async function enrolmentExport(db: DbOrTx, q: EnrolmentQuery, now: Date) {
  const filter = await filterOf(db, q)
  const sort = parseSort(q.sort)
  const time = (iso: string | null) => (iso ? beijingDateTime(new Date(iso)) : '')
  return {
    header: ENROLMENT_CSV_HEADER,
    read: (offset: number, limit: number) => enrolmentList.page(db, filter, sort, { offset, limit }),
    cells: async (rows: EnrolmentRow[]) =>
      (await staffRows(db, rows, now)).map((r) => [
        r.id,
        r.member_id,
        r.phone,
        r.name,
        r.course_title,
        r.plan_title,
        enrolmentStateNames[r.state],
        fenToYuan(r.total_fen),
        fenToYuan(r.paid_fen),
        time(r.next_due_at),
        time(r.created_at),
      ]),
  }
}

const scheduleView = (p: SchedulePaymentRow, now: Date) => ({ ...snakeView(p), status: scheduleStatus(p, now) })

/**
 * One enrolment for staff: the list's row with its dates, the schedule (paid, due, overdue), the whole event log,
 * the contract, and while an exit waits for approval what it gives back, payment by payment.
 */
export async function enrolmentDetail(db: DbOrTx, id: number, now: Date) {
  const e = await findEnrolment(db, id)
  if (!e) throw new AppError(Codes.NotFound, `报名 ${id} 不存在`)
  const [[row], schedule, events, contract] = await Promise.all([
    staffRows(db, [e], now),
    scheduleOf(db, [id]),
    eventsOf(db, id),
    contractOfEnrolment(db, id),
  ])
  const waiting = e.exitRequestedAt && e.state !== 'exited'
  return {
    ...row!,
    started_at: e.startedAt?.toISOString() ?? null,
    expires_at: e.expiresAt?.toISOString() ?? null,
    pause_until: e.pauseUntil?.toISOString() ?? null,
    paused_days: e.pausedDays,
    schedule: schedule.map((p) => scheduleView(p, now)),
    events: events.map((v) => snakeView(v)),
    contract: contract && {
      id: contract.id,
      signed_at: contract.signedAt?.toISOString() ?? null,
      real_name: contract.realName,
      sha256: contract.sha256,
    },
    exit_quote: waiting ? await exitQuote(db, e, e.exitRequestedAt!) : null,
  }
}
