import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { PointLedgerQuery } from '#shared/api/admin-points.ts'
import { LedgerEntry } from './points.schema.ts'
import type { PointLedgerAdmin } from './points.service.ts'

/**
 * Every member's points ledger in the operators' console (GET /api/admin/points/ledger), newest first, by member,
 * reason and day, with CSV. Adjusting stays POST /api/admin/points/adjust (points.routes.ts).
 */
export const adminPointLedgerRoutes = adminPlugin(GroupAccess.points, (r, { ledger }: { ledger: PointLedgerAdmin }) => {
  // Permission: operator, finance, assistant (members.read); never a teacher.
  listRoute(r, '/admin/points/ledger', {
    summary: "Every member's points ledger entries, newest first, by member, reason and day, with who made each",
    querystring: PointLedgerQuery,
    row: LedgerEntry,
    list: ledger,
  })
})
