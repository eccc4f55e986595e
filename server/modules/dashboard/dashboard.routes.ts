import { requireRole } from '#server/http/auth.ts'
import { apiPlugin } from '#server/http/route.ts'
import { dashboardParts } from '#shared/staff/dashboard.ts'
import { DashboardResponse } from './dashboard.schema.ts'
import type { DashboardService } from './dashboard.service.ts'

/**
 * The operators' dashboard (under /api/admin/): any staff member opens it, and sees only the parts their roles
 * open (shared/staff/dashboard.ts: money for operator and finance, never for a teacher).
 */
export const adminDashboardRoutes = apiPlugin(
  { tags: ['admin'], auth: 'staff' },
  (r, { dashboard }: { dashboard: DashboardService }) => {
    r.get(
      '/admin/dashboard',
      {
        summary: 'Today and the last 30 Beijing days: revenue, orders, refunds, members, learners; work waiting',
        description:
          'Figures in integer fen from the orders (paid in the period), refunds (succeeded in the period) and the points ledger; active learners and plays from progress saves; the top courses by order lines sold. Only the parts the caller’s roles open are answered (`parts`): sales needs sales.read, members members.read, learning members.read or catalogue.read, refunds refunds.read, media catalogue.read.',
        response: DashboardResponse,
      },
      async (request) => dashboard.dashboard(dashboardParts(requireRole(request, 'staff'))),
    )
  },
)
