import { adminPlugin } from '#server/http/route.ts'
import { DashboardResponse } from './dashboard.schema.ts'
import type { DashboardService } from './dashboard.service.ts'

/** The operators' dashboard (under /api/admin/). */
export const adminDashboardRoutes = adminPlugin('orders.read', (r, { dashboard }: { dashboard: DashboardService }) => {
  // Permission: operator and finance (figures of money); the console-shell branch maps it.
  r.get(
    '/admin/dashboard',
    {
      summary: 'Today and the last 30 Beijing days: revenue, orders, refunds, members, learners; work waiting',
      description:
        'Figures in integer fen from the orders (paid in the period), refunds (succeeded in the period) and the points ledger; active learners and plays from progress saves; the top courses by order lines sold.',
      response: DashboardResponse,
    },
    async () => dashboard.dashboard(),
  )
})
