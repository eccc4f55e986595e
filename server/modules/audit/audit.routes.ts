import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import type { AuditService } from './audit.service.ts'
import { StaffActionQuery, StaffActionView } from './audit.schema.ts'

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export const adminAuditRoutes = adminPlugin('audit.read', (r, { audit }: { audit: AuditService }) => {
  listRoute(r, '/admin/staff-actions', {
    summary: 'Changes made through the staff API: by operator (member id or phone) and route prefix',
    querystring: StaffActionQuery,
    row: StaffActionView,
    list: audit.actions,
  })
})
