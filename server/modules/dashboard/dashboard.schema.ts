import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'

const Fen = z.number().int().describe('integer fen')

/** The money of a period split one way (by order kind or by payment method). */
const Split = z.object({ key: z.string(), fen: Fen, orders: z.number().int() })

/** What the orders, refunds and ledgers say about one period. */
const PeriodFigures = z.object({
  /** From this instant (Beijing midnight) up to the moment of the answer. */
  from: z.string(),
  revenue_fen: Fen.describe('Money taken by orders paid in the period'),
  paid_orders: z.number().int(),
  refunds_fen: Fen.describe('Money returned by refunds that succeeded in the period'),
  refunds: z.number().int(),
  net_fen: Fen.describe('revenue_fen − refunds_fen'),
  by_kind: z.array(Split),
  by_pay_method: z.array(Split),
  new_members: z.number().int(),
  active_learners: z.number().int().describe('Members who saved progress in the period'),
  plays: z.number().int().describe('Lessons (member × video) watched in the period'),
  points_given: z.number().int(),
  points_taken: z.number().int(),
})

const DashboardDay = z.object({
  day: z.string().describe('YYYY-MM-DD, Beijing'),
  revenue_fen: Fen,
  paid_orders: z.number().int(),
  refunds_fen: Fen,
  new_members: z.number().int(),
})

export const Dashboard = z.object({
  today: PeriodFigures,
  last_30_days: PeriodFigures,
  /** The 30 Beijing days, oldest first, today last (for the charts). */
  days: z.array(DashboardDay),
  top_courses: z.array(
    z.object({ course_id: z.number().int(), title: z.string(), sold: z.number().int(), sales_fen: Fen }),
  ),
  pending: z.object({
    refunds_to_approve: z.number().int(),
    refunds_failed: z.number().int(),
    transcodes_failed: z.number().int(),
    failed_transcodes: z.array(
      z.object({
        video_id: z.number().int(),
        title: z.string(),
        error: z.string().nullable(),
        failed_at: z.string(),
      }),
    ),
  }),
})
export type Dashboard = z.infer<typeof Dashboard>

export const DashboardResponse = envelope(Dashboard)
