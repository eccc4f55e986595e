// The scale seed's system-course tuition (issue 15): a plan for each system course, enrolments of some members in
// every state, each enrolment's payment schedule as the plan makes it (server/modules/tuition/tuition-rules.ts),
// the tuition orders its paid payments came from, and the access grant a first payment opens. What the overdue and
// pause sweeps, the console's tuition screens and the access function read at scale.
//
// Not generated: contracts (the plans need none), leads, enrolment events, and the refunds of exits (an exit is
// recorded with nothing given back).
import { buildSchedule, type PlanTerms, type ScheduledPayment } from '#server/modules/tuition/tuition-rules.ts'
import type { CataloguePlan } from './catalogue.ts'
import type { CopyValue } from './copy.ts'
import { Rng } from './random.ts'

export interface TuitionStart {
  planId: number
  enrolmentId: number
  paymentId: number
  /** Tuition orders, their items and events, and the grants continue after the audience's. */
  orderId: number
  orderItemId: number
  orderEventId: number
  entitlementId: number
}

interface PlanRow extends PlanTerms {
  id: number
  courseId: number
  title: string
  studyDays: number
}

type EnrolmentState = 'offered' | 'signed' | 'paying' | 'enrolled' | 'paused' | 'overdue' | 'exited'

interface Enrolment {
  id: number
  memberId: number
  plan: PlanRow
  state: EnrolmentState
  offered: number
  schedule: ScheduledPayment[]
  /** When each payment falls due (the first the day after the offer, when the contract was signed). */
  dueTimes: number[]
  /** How many payments, from the first, were paid. */
  paid: number
  started: number | null
  /** When the grant ends: the programme's end, or when a pause, an overdue payment or the exit closed it. */
  grantUntil: number | null
  pausedAt: number | null
  pauseUntil: number | null
  exitedAt: number | null
  updatedAt: number
}

const DAY = 86_400_000
/** The grace period the overdue sweep allows (TUITION_GRACE_DAYS' default). */
const GRACE = 7 * DAY
const iso = (ms: number) => new Date(ms).toISOString()
const beijingDate = (ms: number) =>
  iso(ms + 8 * 3600_000)
    .slice(0, 10)
    .replaceAll('-', '')

/** One plan of each kind, in turn: in full, a deposit then the balance, 6 or 12 monthly instalments. */
const planShapes: (Omit<PlanTerms, 'totalFen' | 'depositFen'> & { title: string; depositShare: number })[] = [
  { kind: 'full', title: '全款', balanceDueDays: 30, instalments: 1, depositShare: 0 },
  { kind: 'deposit', title: '定金 + 尾款', balanceDueDays: 30, instalments: 1, depositShare: 0.2 },
  { kind: 'instalments', title: '6 期分期', balanceDueDays: 30, instalments: 6, depositShare: 0 },
  { kind: 'instalments', title: '12 期分期', balanceDueDays: 30, instalments: 12, depositShare: 0 },
]

const tuitions = [398_000, 598_000, 898_000, 1_280_000, 1_980_000]

export class TuitionPlan {
  private readonly plans: PlanRow[]
  private readonly catalogue: CataloguePlan
  readonly seed: number
  /** How many enrolments, spread over different members (at most one per member); none without a system course. */
  readonly count: number
  readonly members: { first: number; count: number }
  readonly start: TuitionStart
  readonly now: number

  /** Made once the catalogue's course rows were generated: the system courses are known then. */
  constructor(
    seed: number,
    count: number,
    members: { first: number; count: number },
    catalogue: CataloguePlan,
    start: TuitionStart,
    now: number,
  ) {
    this.seed = seed
    this.members = members
    this.start = start
    this.now = now
    this.catalogue = catalogue
    if (catalogue.titles.length < catalogue.courseCount) throw new Error('TuitionPlan: the course rows come first')
    const systemCourses = [...new Set(catalogue.systemItems.map(([id]) => id))]
    const rng = new Rng(seed, 'tuition-plans')
    this.plans = systemCourses.map((courseId, i) => {
      const shape = planShapes[i % planShapes.length]!
      const totalFen = rng.pick(tuitions)
      return {
        id: start.planId + i,
        courseId,
        title: shape.title,
        kind: shape.kind,
        totalFen,
        depositFen: Math.round(totalFen * shape.depositShare),
        balanceDueDays: shape.balanceDueDays,
        instalments: shape.instalments,
        studyDays: 365,
      }
    })
    this.count = this.plans.length > 0 ? Math.min(count, members.count) : 0
  }

  *planRows(): Generator<CopyValue[]> {
    const created = iso(this.now - 3 * 365 * DAY)
    for (const p of this.plans)
      // contract_required false: no contracts are generated, and an offer under a plan that needs one has one.
      yield [
        p.id,
        p.courseId,
        p.title,
        p.kind,
        p.totalFen,
        p.depositFen,
        p.balanceDueDays,
        p.instalments,
        p.studyDays,
        false,
        created,
      ]
  }

  /** Enrolment j (the same on every pass). */
  private enrolment(j: number): Enrolment {
    const rng = new Rng(this.seed, 'enrolments', j)
    const plan = rng.pick(this.plans)
    const memberId = this.members.first + Math.floor((j * this.members.count) / this.count)
    const offered = this.now - (2 + rng.next() * 728) * DAY
    const schedule = buildSchedule(plan, new Date(offered))
    const dueTimes = schedule.map((p) => p.dueAt?.getTime() ?? offered + DAY)
    const started = offered + DAY
    const end = started + plan.studyDays * DAY
    const base = { id: this.start.enrolmentId + j, memberId, plan, offered, schedule, dueTimes }
    const none = { pausedAt: null, pauseUntil: null, exitedAt: null }
    const roll = rng.next()
    // Before the first payment: offered, or the contract signed.
    if (roll < 0.08) {
      const state = roll < 0.05 ? 'offered' : 'signed'
      return { ...base, ...none, state, paid: 0, started: null, grantUntil: null, updatedAt: offered }
    }
    const paidBy = (at: number) => dueTimes.filter((t) => t <= at).length
    if (roll < 0.16) {
      // Left the programme some time after starting (its payments stop there).
      const exitedAt = started + DAY + rng.next() * (Math.min(end, this.now) - started - DAY)
      const paid = paidBy(exitedAt)
      return { ...base, ...none, state: 'exited', paid, started, grantUntil: exitedAt, exitedAt, updatedAt: exitedAt }
    }
    // The last payment more than the grace period overdue, if any (never the first: it opened access).
    const late = dueTimes.findLastIndex((t, i) => i > 0 && t < this.now - GRACE - DAY)
    if (late > 0 && roll < 0.2) {
      // Stopped paying there: the sweep paused access (overdue), or one in five has not been swept yet (paying).
      const swept = rng.chance(0.8)
      const pausedAccess = dueTimes[late]! + GRACE + DAY / 2
      return {
        ...base,
        ...none,
        state: swept ? 'overdue' : 'paying',
        paid: late,
        started,
        grantUntil: swept ? pausedAccess : end,
        updatedAt: swept ? pausedAccess : dueTimes[late - 1]!,
      }
    }
    const paid = paidBy(this.now)
    const lastPaid = dueTimes[paid - 1]!
    if (roll < 0.24) {
      // A pause that began in the last month: some have ended (the sweep resumes those).
      const pausedAt = Math.max(lastPaid, this.now - rng.next() * 30 * DAY)
      const pauseUntil = pausedAt + rng.int(7, 90) * DAY
      return {
        ...base,
        state: 'paused',
        paid,
        started,
        grantUntil: pausedAt,
        pausedAt,
        pauseUntil,
        exitedAt: null,
        updatedAt: pausedAt,
      }
    }
    const state = paid === schedule.length ? 'enrolled' : 'paying'
    return { ...base, ...none, state, paid, started, grantUntil: end, updatedAt: lastPaid }
  }

  /** Every enrolment with the id of its first payment and of its first tuition order. */
  private *walk(): Generator<[Enrolment, number, number]> {
    let payment = this.start.paymentId
    let order = this.start.orderId
    for (let j = 0; j < this.count; j++) {
      const e = this.enrolment(j)
      yield [e, payment, order]
      payment += e.schedule.length
      order += e.paid
    }
  }

  *enrolmentRows(): Generator<CopyValue[]> {
    for (const [e] of this.walk()) {
      const time = (ms: number | null) => (ms === null ? null : iso(ms))
      yield [
        e.id,
        e.memberId,
        e.plan.courseId,
        e.plan.id,
        e.state,
        time(e.started),
        time(e.started === null ? null : e.started + e.plan.studyDays * DAY),
        time(e.pausedAt),
        time(e.pauseUntil),
        0,
        e.exitedAt === null ? null : 0,
        time(e.exitedAt === null ? null : e.exitedAt - DAY / 4),
        time(e.exitedAt),
        iso(e.offered),
        iso(e.updatedAt),
      ]
    }
  }

  /** When payment i of `e` was paid: when it fell due, or at the latest a minute before the seed's now. */
  private paidAt(e: Enrolment, i: number) {
    return Math.min(e.dueTimes[i]!, this.now - 60_000)
  }

  *paymentRows(): Generator<CopyValue[]> {
    for (const [e, firstPayment, firstOrder] of this.walk())
      for (const [i, p] of e.schedule.entries()) {
        const paid = i < e.paid
        yield [
          firstPayment + i,
          e.id,
          p.seq,
          p.label,
          p.amountFen,
          p.dueAt === null ? null : p.dueAt.toISOString(),
          p.opensAccess,
          paid ? 'paid' : 'due',
          paid ? this.orderNo(firstOrder + i, this.paidAt(e, i)) : null,
          paid ? iso(this.paidAt(e, i)) : null,
        ]
      }
  }

  private orderNo(id: number, at: number) {
    return `ZX${beijingDate(at - 60_000)}${String(id).padStart(10, '0')}`
  }

  private orderTitle(e: Enrolment, i: number) {
    return `${this.catalogue.titles[e.plan.courseId - this.catalogue.start.courseId]} · 学费${e.schedule[i]!.label}`
  }

  /** The paid tuition orders (kind tuition, target tuition:<payment id>), in the orders' columns. */
  *orderRows(): Generator<CopyValue[]> {
    for (const [e, firstPayment, firstOrder] of this.walk())
      for (let i = 0; i < e.paid; i++) {
        const id = firstOrder + i
        const paidAt = this.paidAt(e, i)
        const provider = (e.id + i) % 3 === 0 ? 'alipay' : 'wechat'
        const amount = e.schedule[i]!.amountFen
        yield [
          id,
          this.orderNo(id, paidAt),
          e.memberId,
          'tuition',
          `tuition:${firstPayment + i}`,
          this.orderTitle(e, i),
          amount,
          amount,
          0,
          0,
          'paid',
          provider === 'alipay' ? 'alipay_wap' : 'wechat_jsapi',
          provider,
          `${provider === 'wechat' ? '4200' : '2026'}${String(id).padStart(16, '0')}`,
          0,
          iso(paidAt - 60_000),
          iso(paidAt - 60_000 + 30 * 60_000),
          iso(paidAt),
          null,
          iso(paidAt),
        ]
      }
  }

  *orderItemRows(): Generator<CopyValue[]> {
    let id = this.start.orderItemId
    for (const [e, , firstOrder] of this.walk())
      for (let i = 0; i < e.paid; i++)
        yield [id++, firstOrder + i, null, null, null, this.orderTitle(e, i), e.schedule[i]!.amountFen]
  }

  *orderEventRows(): Generator<CopyValue[]> {
    let id = this.start.orderEventId
    for (const [e, , firstOrder] of this.walk())
      for (let i = 0; i < e.paid; i++) {
        const paidAt = this.paidAt(e, i)
        const provider = (e.id + i) % 3 === 0 ? 'alipay' : 'wechat'
        yield [id++, firstOrder + i, null, 'pending', 'created', `member:${e.memberId}`, iso(paidAt - 60_000)]
        yield [id++, firstOrder + i, 'pending', 'paid', 'paid', `provider:${provider}`, iso(paidAt)]
      }
  }

  /** The grant of each enrolment that started: its system course, until the programme's end or what closed it. */
  *entitlementRows(): Generator<CopyValue[]> {
    let id = this.start.entitlementId
    for (const [e] of this.walk()) {
      if (e.started === null) continue
      yield [
        id++,
        e.memberId,
        e.plan.courseId,
        'tuition',
        `enrolment:${e.id}`,
        iso(e.started),
        iso(e.grantUntil!),
        null,
      ]
    }
  }
}
