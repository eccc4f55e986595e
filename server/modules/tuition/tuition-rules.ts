import type { PlanKind } from '#server/db/schema/tuition.ts'

// The pure rules of tuition (issue 15 §3, §4): the schedule a plan makes, what is overdue, and what exit gives back.

const DAY_MS = 86_400_000

export interface PlanTerms {
  kind: PlanKind
  totalFen: number
  depositFen: number
  balanceDueDays: number
  instalments: number
}

export interface ScheduledPayment {
  seq: number
  label: string
  amountFen: number
  /** Null: due as soon as the contract is signed. */
  dueAt: Date | null
  opensAccess: boolean
}

/** Adds calendar months in UTC, keeping the day where the month has it (31 Jan + 1 month = 28/29 Feb). */
function addMonths(at: Date, months: number) {
  const d = new Date(at)
  const day = d.getUTCDate()
  d.setUTCDate(1)
  d.setUTCMonth(d.getUTCMonth() + months)
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
  d.setUTCDate(Math.min(day, last))
  return d
}

/**
 * The payments a plan asks for, from the offer date: in full (one, opening access); a deposit (opening access)
 * then the balance `balanceDueDays` later; or N monthly instalments, the first opening access, the rest a month
 * apart, the fen left by the division on the first so that the sum is the tuition exactly.
 */
export function buildSchedule(plan: PlanTerms, from: Date): ScheduledPayment[] {
  if (plan.kind === 'full') return [{ seq: 1, label: '全款', amountFen: plan.totalFen, dueAt: null, opensAccess: true }]
  if (plan.kind === 'deposit')
    return [
      { seq: 1, label: '定金', amountFen: plan.depositFen, dueAt: null, opensAccess: true },
      {
        seq: 2,
        label: '尾款',
        amountFen: plan.totalFen - plan.depositFen,
        dueAt: new Date(from.getTime() + plan.balanceDueDays * DAY_MS),
        opensAccess: false,
      },
    ]
  const n = plan.instalments
  const each = Math.floor(plan.totalFen / n)
  const first = plan.totalFen - each * (n - 1)
  return Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    label: `第 ${i + 1}/${n} 期`,
    amountFen: i === 0 ? first : each,
    dueAt: i === 0 ? null : addMonths(from, i),
    opensAccess: i === 0,
  }))
}

export type ScheduleStatus = 'paid' | 'due' | 'overdue' | 'refunded'

/** A scheduled payment as the learner sees it: paid, due, or overdue (its due date has passed). */
export function scheduleStatus(p: { state: string; dueAt: Date | null }, now: Date): ScheduleStatus {
  if (p.state === 'paid') return 'paid'
  if (p.state === 'refunded') return 'refunded'
  return p.dueAt !== null && p.dueAt < now ? 'overdue' : 'due'
}

/** True when a due payment is past its date by more than the grace period: access pauses. */
export function pastGrace(p: { state: string; dueAt: Date | null }, now: Date, graceDays: number) {
  return p.state === 'due' && p.dueAt !== null && now.getTime() - p.dueAt.getTime() > graceDays * DAY_MS
}

export interface ExitFacts {
  /** What the member paid, payment by payment (fen, less what was refunded already). */
  paidFen: number
  /** The programme's length, and the days of it used so far (pauses do not count). */
  studyDays: number
  usedDays: number
  exitFeeFen: number
}

/**
 * What exit gives back under the contract's rule: the unused share of what was paid (paid × unused days ÷ study
 * days, rounded down to the fen) less the exit fee; never below 0, never more than was paid.
 */
export function exitRefundFen(f: ExitFacts): number {
  const unused = Math.max(0, f.studyDays - Math.max(0, f.usedDays))
  const share = Math.floor((f.paidFen * unused) / f.studyDays)
  return Math.min(f.paidFen, Math.max(0, share - f.exitFeeFen))
}

/** Whole days between two instants (partial days count as used: the learner had the day). */
export function daysBetween(from: Date, to: Date) {
  return Math.max(0, Math.ceil((to.getTime() - from.getTime()) / DAY_MS))
}

/** Splits a refund over the payments it came from, newest payment first, never more than each one's remainder. */
export function refundByPayment(refundFen: number, payments: { id: number; refundableFen: number }[]) {
  let left = refundFen
  const out: { id: number; fen: number }[] = []
  for (const p of [...payments].reverse()) {
    if (left <= 0) break
    const fen = Math.min(left, p.refundableFen)
    if (fen > 0) out.push({ id: p.id, fen })
    left -= fen
  }
  return out
}
