import type { Db } from '#server/db/database.ts'
import { watchingFigures } from '#server/modules/learning/learning.service.ts'
import { courseTitlesByIds, videoTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { failedTranscodes } from '#server/modules/media/video-media.service.ts'
import { newMemberFigures } from '#server/modules/members/members.service.ts'
import { paidOrderFigures, topSoldCourses, type PaidOrderFigure } from '#server/modules/orders/orders.service.ts'
import { pointFigures } from '#server/modules/points/points.service.ts'
import {
  refundedLineColumn,
  succeededRefundFigures,
  waitingRefundCounts,
} from '#server/modules/refunds/refunds.service.ts'
import { dashboardPartNames, type DashboardPart } from '#shared/staff/dashboard.ts'
import { beijingDate, beijingDayStart } from '#shared/time.ts'
import type { Dashboard, DashboardPeriod } from './dashboard.schema.ts'

export { createSalesFigures, type SalesFiguresService } from './sales.ts'

const DAY_MS = 24 * 3600 * 1000
const DAYS = 30
const TOP_COURSES = 10
const FAILED_SHOWN = 10

type Daily<T> = (T & { day: string })[]

const sum = <T>(rows: T[], f: (r: T) => number) => rows.reduce((n, r) => n + f(r), 0)

/** Orders' money split by one key, biggest first. */
function split(rows: PaidOrderFigure[], key: (r: PaidOrderFigure) => string) {
  const by = new Map<string, { fen: number; orders: number }>()
  for (const r of rows) {
    const s = by.get(key(r)) ?? { fen: 0, orders: 0 }
    by.set(key(r), { fen: s.fen + r.fen, orders: s.orders + r.orders })
  }
  return [...by].map(([k, s]) => ({ key: k, ...s })).sort((a, b) => b.fen - a.fen || a.key.localeCompare(b.key))
}

/** Runs `read` only when the part is shown; otherwise answers nothing without asking the database. */
const when = <T>(shown: boolean, read: () => Promise<T>): Promise<T | undefined> =>
  shown ? read() : Promise.resolve(undefined)

/**
 * The operators' dashboard: today and the last 30 Beijing days (today included), from the orders, the refunds,
 * the points ledger, new members and progress saves, plus the work waiting for staff. Each module answers for its
 * own tables through its door; every figure is integer fen or a count. Only the parts the viewer may see
 * (shared/staff/dashboard.ts) are read and answered.
 */
export function createDashboardService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  return {
    /** The dashboard as of now with the given parts (GET /api/admin/dashboard); all of them by default. */
    async dashboard(parts: readonly DashboardPart[] = dashboardPartNames): Promise<Dashboard> {
      const shows = new Set(parts)
      const at = now()
      const todayStart = beijingDayStart(at)
      const from = new Date(todayStart.getTime() - (DAYS - 1) * DAY_MS)
      const to = new Date(todayStart.getTime() + DAY_MS)
      const today = beijingDate(todayStart)
      const sales = shows.has('sales')
      const people = shows.has('members')
      const [paid, refunded, top, joined, points, watching, waiting, failed] = await Promise.all([
        when(sales, () => paidOrderFigures(db, from, to)),
        when(sales, () => succeededRefundFigures(db, from, to)),
        when(sales, () => topSoldCourses(db, from, to, TOP_COURSES, refundedLineColumn)),
        when(people, () => newMemberFigures(db, from, to)),
        when(people, () => pointFigures(db, from, to)),
        when(shows.has('learning'), () => watchingFigures(db, from, todayStart, to)),
        when(shows.has('refunds'), () => waitingRefundCounts(db)),
        when(shows.has('media'), () => failedTranscodes(db, FAILED_SHOWN)),
      ])
      const [courseTitles, videoTitles] = await Promise.all([
        top?.length
          ? courseTitlesByIds(
              db,
              top.map((c) => c.courseId),
            )
          : undefined,
        failed?.rows.length
          ? videoTitlesByIds(
              db,
              failed.rows.map((f) => f.videoId),
            )
          : undefined,
      ])

      type Only = <T>(rows: Daily<T>) => Daily<T>
      const period = (start: Date, only: Only, learners: number, plays: number): DashboardPeriod => {
        const figures: DashboardPeriod = { from: start.toISOString() }
        if (paid && refunded) {
          const orders = only(paid)
          const back = only(refunded)
          const revenue = sum(orders, (r) => r.fen)
          const refundsFen = sum(back, (r) => r.fen)
          Object.assign(figures, {
            revenue_fen: revenue,
            paid_orders: sum(orders, (r) => r.orders),
            refunds_fen: refundsFen,
            refunds: sum(back, (r) => r.refunds),
            net_fen: revenue - refundsFen,
            by_kind: split(orders, (r) => r.kind),
            by_pay_method: split(orders, (r) => r.payMethod),
          })
        }
        if (joined && points)
          Object.assign(figures, {
            new_members: sum(only(joined), (r) => r.members),
            points_given: sum(only(points), (r) => r.given),
            points_taken: sum(only(points), (r) => r.taken),
          })
        if (watching) Object.assign(figures, { active_learners: learners, plays })
        return figures
      }
      const onDay =
        (day: string): Only =>
        (rows) =>
          rows.filter((r) => r.day === day)
      const days = Array.from({ length: DAYS }, (_, i) => beijingDate(new Date(from.getTime() + i * DAY_MS)))

      return {
        as_of: at.toISOString(),
        parts: dashboardPartNames.filter((p) => shows.has(p)),
        today: period(todayStart, onDay(today), watching?.recentLearners ?? 0, watching?.recentPlays ?? 0),
        last_30_days: period(from, (rows) => rows, watching?.learners ?? 0, watching?.plays ?? 0),
        days: days.map((day) => {
          const on = onDay(day)
          return {
            day,
            ...(paid &&
              refunded && {
                revenue_fen: sum(on(paid), (r) => r.fen),
                paid_orders: sum(on(paid), (r) => r.orders),
                refunds_fen: sum(on(refunded), (r) => r.fen),
                by_kind: split(on(paid), (r) => r.kind).map(({ key, fen }) => ({ key, fen })),
              }),
            ...(joined && { new_members: sum(on(joined), (r) => r.members) }),
          }
        }),
        ...(top && {
          top_courses: top.map((c) => ({
            course_id: c.courseId,
            title: courseTitles?.get(c.courseId)?.title ?? '',
            sold: c.sold,
            sales_fen: c.fen,
          })),
        }),
        pending: {
          ...(waiting && { refunds_to_approve: waiting.requested, refunds_failed: waiting.failed }),
          ...(failed && {
            transcodes_failed: failed.total,
            failed_transcodes: failed.rows.map((f) => ({
              video_id: f.videoId,
              title: videoTitles?.get(f.videoId) ?? '',
              error: f.error,
              failed_at: f.updatedAt.toISOString(),
            })),
          }),
        },
      }
    },
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>
