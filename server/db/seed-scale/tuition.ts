// The scale seed's system-course tuition (issue 15): a plan for each system course, enrolments of some members in
// every state, and each enrolment's payment schedule as the plan makes it, paid up to where its state says. What
// the overdue and pause sweeps and the console's tuition screens read at scale.
import { buildSchedule, type PlanTerms } from '#server/modules/tuition/tuition-rules.ts'
import type { CataloguePlan } from './catalogue.ts'
import type { CopyValue } from './copy.ts'
import { Rng } from './random.ts'

export interface TuitionStart {
  planId: number
  enrolmentId: number
  paymentId: number
}

interface PlanRow extends PlanTerms {
  id: number
  courseId: number
  studyDays: number
}

const DAY = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()

/** One plan of each kind, in turn: in full, a deposit then the balance, 6 or 12 monthly instalments. */
const planShapes: (Omit<PlanTerms, 'totalFen' | 'depositFen'> & { title: string; depositShare: number })[] = [
  { kind: 'full', title: '全款', balanceDueDays: 30, instalments: 1, depositShare: 0 },
  { kind: 'deposit', title: '定金 + 尾款', balanceDueDays: 30, instalments: 1, depositShare: 0.2 },
  { kind: 'instalments', title: '6 期分期', balanceDueDays: 30, instalments: 6, depositShare: 0 },
  { kind: 'instalments', title: '12 期分期', balanceDueDays: 30, instalments: 12, depositShare: 0 },
]

const tuitions = [398_000, 598_000, 898_000, 1_280_000, 1_980_000]

export class TuitionPlan {
  private madePlans: PlanRow[] | null = null
  private readonly catalogue: CataloguePlan
  readonly seed: number
  /** How many enrolments, spread over different members (at most one per member). */
  readonly count: number
  readonly members: { first: number; count: number }
  readonly start: TuitionStart
  readonly now: number

  constructor(
    seed: number,
    count: number,
    members: { first: number; count: number },
    catalogue: CataloguePlan,
    start: TuitionStart,
    now: number,
  ) {
    this.seed = seed
    this.count = count
    this.members = members
    this.start = start
    this.now = now
    this.catalogue = catalogue
  }

  /** A plan for each system course, made on first use: the system courses are known once their rows were generated. */
  private get plans(): PlanRow[] {
    if (this.madePlans) return this.madePlans
    const systemCourses = [...new Set(this.catalogue.systemItems.map(([id]) => id))]
    const rng = new Rng(this.seed, 'tuition-plans')
    this.madePlans = systemCourses.map((courseId, i) => {
      const shape = planShapes[i % planShapes.length]!
      const totalFen = rng.pick(tuitions)
      return {
        id: this.start.planId + i,
        courseId,
        kind: shape.kind,
        totalFen,
        depositFen: Math.round(totalFen * shape.depositShare),
        balanceDueDays: shape.balanceDueDays,
        instalments: shape.instalments,
        studyDays: 365,
      }
    })
    return this.madePlans
  }

  /** How many enrolments: none when the catalogue is too small to have a system course. */
  private get enrolments() {
    return this.plans.length > 0 ? this.count : 0
  }

  *planRows(): Generator<CopyValue[]> {
    for (const [i, p] of this.plans.entries()) {
      const title = planShapes[i % planShapes.length]!.title
      const created = iso(this.now - 3 * 365 * DAY)
      yield [
        p.id,
        p.courseId,
        title,
        p.kind,
        p.totalFen,
        p.depositFen,
        p.balanceDueDays,
        p.instalments,
        p.studyDays,
        created,
      ]
    }
  }

  /** Enrolment j: its member, plan, state, times and schedule (the same on every pass). */
  private enrolment(j: number) {
    const rng = new Rng(this.seed, 'enrolments', j)
    const plan = rng.pick(this.plans)
    const memberId = this.members.first + Math.floor((j * this.members.count) / this.count)
    const offered = this.now - rng.next() * 2 * 365 * DAY
    const schedule = buildSchedule(plan, new Date(offered))
    const due = (p: (typeof schedule)[number]) => p.dueAt?.getTime() ?? offered + DAY
    const roll = rng.next()
    // Before the first payment: offered, or the contract signed.
    if (roll < 0.05) return { j, memberId, plan, offered, schedule, state: 'offered' as const, paid: 0 }
    if (roll < 0.08) return { j, memberId, plan, offered, schedule, state: 'signed' as const, paid: 0 }
    // Paid up to today; one in twenty-five stopped paying one payment early (overdue when it is past due).
    let paid = schedule.filter((p) => due(p) <= this.now).length
    const late = schedule.length > 1 && paid > 1 && rng.chance(0.04)
    if (late) paid -= 1
    const state =
      roll < 0.16
        ? ('exited' as const)
        : late
          ? ('overdue' as const)
          : roll < 0.2
            ? ('paused' as const)
            : paid === schedule.length
              ? ('enrolled' as const)
              : ('paying' as const)
    return { j, memberId, plan, offered, schedule, state, paid, pause: rng.int(7, 90) * DAY, ago: rng.next() }
  }

  *enrolmentRows(): Generator<CopyValue[]> {
    for (let j = 0; j < this.enrolments; j++) {
      const e = this.enrolment(j)
      const started = e.paid > 0 ? e.offered + DAY : null
      const expires = started === null ? null : started + e.plan.studyDays * DAY
      // A pause began in the last month; some have ended (the sweep resumes those).
      const pausedAt = e.state === 'paused' ? this.now - (e.ago ?? 0) * 30 * DAY : null
      const exitedAt = e.state === 'exited' ? e.offered + (e.ago ?? 0) * (this.now - e.offered) : null
      yield [
        this.start.enrolmentId + j,
        e.memberId,
        e.plan.courseId,
        e.plan.id,
        e.state,
        started === null ? null : iso(started),
        expires === null ? null : iso(expires),
        pausedAt === null ? null : iso(pausedAt),
        pausedAt === null ? null : iso(pausedAt + e.pause!),
        0,
        e.state === 'exited' ? 0 : null,
        exitedAt === null ? null : iso(exitedAt),
        exitedAt === null ? null : iso(exitedAt),
        iso(e.offered),
        iso(exitedAt ?? pausedAt ?? e.offered + DAY),
      ]
    }
  }

  *paymentRows(): Generator<CopyValue[]> {
    let id = this.start.paymentId
    for (let j = 0; j < this.enrolments; j++) {
      const e = this.enrolment(j)
      for (const [i, p] of e.schedule.entries()) {
        const paid = i < e.paid
        const at = p.dueAt?.getTime() ?? e.offered + DAY
        yield [
          id++,
          this.start.enrolmentId + j,
          p.seq,
          p.label,
          p.amountFen,
          p.dueAt === null ? null : p.dueAt.toISOString(),
          p.opensAccess,
          paid ? 'paid' : 'due',
          paid ? iso(Math.min(at, this.now - 60_000)) : null,
        ]
      }
    }
  }
}
