import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope } from '#server/http/envelope.ts'
import { dashboardPartNames } from '#shared/staff/dashboard.ts'

// Every figure belongs to one part of the dashboard (shared/staff/dashboard.ts): a part the viewer's roles do not
// open is absent from the answer (the server does not even compute it), so its fields are optional here.

const Count = z.number().int()

/** The money of a period split one way (by order kind or by payment method). */
const Split = z.object({ key: z.string(), fen: Fen, orders: Count })

/** What the orders, refunds and ledgers say about one period. */
const PeriodFigures = z.object({
  /** From this instant (Beijing midnight) up to the moment of the answer. */
  from: z.string(),
  // sales
  revenue_fen: Fen.describe('Money taken by orders paid in the period').optional(),
  paid_orders: Count.optional(),
  refunds_fen: Fen.describe('Money returned by refunds that succeeded in the period').optional(),
  refunds: Count.optional(),
  net_fen: Fen.describe('revenue_fen − refunds_fen').optional(),
  by_kind: z.array(Split).optional(),
  by_pay_method: z.array(Split).optional(),
  // members
  new_members: Count.optional(),
  points_given: Count.optional(),
  points_taken: Count.optional(),
  // learning
  active_learners: Count.describe('Members who saved progress in the period').optional(),
  plays: Count.describe('Lessons (member × video) watched in the period').optional(),
})

const DashboardDay = z.object({
  day: z.string().describe('YYYY-MM-DD, Beijing'),
  revenue_fen: Fen.optional(),
  paid_orders: Count.optional(),
  refunds_fen: Fen.optional(),
  /** The day's revenue by order kind (for the stacked chart). */
  by_kind: z.array(z.object({ key: z.string(), fen: Fen })).optional(),
  new_members: Count.optional(),
})

export const Dashboard = z.object({
  as_of: z.string(),
  /** The parts the viewer's roles open (shared/staff/dashboard.ts); the others are left out. */
  parts: z.array(z.enum(dashboardPartNames)),
  today: PeriodFigures,
  last_30_days: PeriodFigures,
  /** The 30 Beijing days, oldest first, today last (for the charts). */
  days: z.array(DashboardDay),
  top_courses: z
    .array(z.object({ course_id: Count, title: z.string(), sold: Count, sales_fen: Fen }))
    .describe('The courses sold most in the 30 days (sales)')
    .optional(),
  pending: z.object({
    refunds_to_approve: Count.optional(),
    refunds_failed: Count.optional(),
    transcodes_failed: Count.optional(),
    failed_transcodes: z
      .array(
        z.object({
          video_id: Count,
          title: z.string(),
          error: z.string().nullable(),
          failed_at: z.string(),
        }),
      )
      .optional(),
  }),
})
export type Dashboard = z.infer<typeof Dashboard>
export type DashboardPeriod = Dashboard['today']

export const DashboardResponse = envelope(Dashboard)
