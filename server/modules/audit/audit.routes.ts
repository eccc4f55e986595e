import { adminPlugin } from '#server/http/route.ts'
import type { AuditService } from './audit.service.ts'
import { StaffActionListResponse, StaffActionQuery } from './audit.schema.ts'

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export const adminAuditRoutes = adminPlugin('audit.read', (r, { audit }: { audit: AuditService }) => {
  r.get(
    '/admin/staff-actions',
    {
      summary: 'Changes made through the staff API, newest first: by operator (member_id) or route prefix',
      querystring: StaffActionQuery,
      response: StaffActionListResponse,
    },
    async (request) => audit.page(request.query),
  )
})
