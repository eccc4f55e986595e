import type { Db } from '#server/db/database.ts'
import { watchingFigures } from '#server/modules/learning/learning.service.ts'
import { courseTitlesByIds, videoTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { failedTranscodes } from '#server/modules/media/video-media.service.ts'
import { newMemberFigures } from '#server/modules/members/members.service.ts'
import { paidOrderFigures, topSoldCourses, type PaidOrderFigure } from '#server/modules/orders/orders.service.ts'
import { pointFigures } from '#server/modules/points/points.service.ts'
import { succeededRefundFigures, waitingRefundCounts } from '#server/modules/refunds/refunds.service.ts'
import { beijingDate, beijingDayStart } from '#shared/time.ts'
import type { Dashboard } from './dashboard.schema.ts'

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

/**
 * The operators' dashboard: today and the last 30 Beijing days (today included), from the orders, the refunds,
 * the points ledger, new members and progress saves, plus the work waiting for staff. Each module answers for its
 * own tables through its door; every figure is integer fen or a count.
 */
export function createDashboardService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  return {
    /** The dashboard as of now (GET /api/admin/dashboard). */
    async dashboard(): Promise<Dashboard> {
      const todayStart = beijingDayStart(now())
      const from = new Date(todayStart.getTime() - (DAYS - 1) * DAY_MS)
      const to = new Date(todayStart.getTime() + DAY_MS)
      const today = beijingDate(todayStart)
      const [paid, refunded, joined, watching, points, top, waiting, failed] = await Promise.all([
        paidOrderFigures(db, from, to),
        succeededRefundFigures(db, from, to),
        newMemberFigures(db, from, to),
        watchingFigures(db, from, todayStart, to),
        pointFigures(db, from, to),
        topSoldCourses(db, from, to, TOP_COURSES),
        waitingRefundCounts(db),
        failedTranscodes(db, FAILED_SHOWN),
      ])
      const [courseTitles, videoTitles] = await Promise.all([
        courseTitlesByIds(
          db,
          top.map((c) => c.courseId),
        ),
        videoTitlesByIds(
          db,
          failed.rows.map((f) => f.videoId),
        ),
      ])

      const period = (start: Date, only: <T>(rows: Daily<T>) => Daily<T>, learners: number, plays: number) => {
        const orders = only(paid)
        const revenue = sum(orders, (r) => r.fen)
        const refundsFen = sum(only(refunded), (r) => r.fen)
        return {
          from: start.toISOString(),
          revenue_fen: revenue,
          paid_orders: sum(orders, (r) => r.orders),
          refunds_fen: refundsFen,
          refunds: sum(only(refunded), (r) => r.refunds),
          net_fen: revenue - refundsFen,
          by_kind: split(orders, (r) => r.kind),
          by_pay_method: split(orders, (r) => r.payMethod),
          new_members: sum(only(joined), (r) => r.members),
          active_learners: learners,
          plays,
          points_given: sum(only(points), (r) => r.given),
          points_taken: sum(only(points), (r) => r.taken),
        }
      }
      const onDay =
        (day: string) =>
        <T>(rows: Daily<T>) =>
          rows.filter((r) => r.day === day)
      const days = Array.from({ length: DAYS }, (_, i) => beijingDate(new Date(from.getTime() + i * DAY_MS)))

      return {
        today: period(todayStart, onDay(today), watching.recentLearners, watching.recentPlays),
        last_30_days: period(from, (rows) => rows, watching.learners, watching.plays),
        days: days.map((day) => {
          const on = onDay(day)
          return {
            day,
            revenue_fen: sum(on(paid), (r) => r.fen),
            paid_orders: sum(on(paid), (r) => r.orders),
            refunds_fen: sum(on(refunded), (r) => r.fen),
            new_members: sum(on(joined), (r) => r.members),
          }
        }),
        top_courses: top.map((c) => ({
          course_id: c.courseId,
          title: courseTitles.get(c.courseId)?.title ?? '',
          sold: c.sold,
          sales_fen: c.fen,
        })),
        pending: {
          refunds_to_approve: waiting.requested,
          refunds_failed: waiting.failed,
          transcodes_failed: failed.total,
          failed_transcodes: failed.rows.map((f) => ({
            video_id: f.videoId,
            title: videoTitles.get(f.videoId) ?? '',
            error: f.error,
            failed_at: f.updatedAt.toISOString(),
          })),
        },
      }
    },
  }
}

export type DashboardService = ReturnType<typeof createDashboardService>
