import type { FastifyInstance } from 'fastify'
import { apiRoutes } from '#server/http/route.ts'
import type { AuditService } from './audit.service.ts'
import { StaffActionListResponse, StaffActionQuery } from './audit.schema.ts'

interface AdminAuditRoutesOptions {
  audit: AuditService
}

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export async function adminAuditRoutes(app: FastifyInstance, opts: AdminAuditRoutesOptions) {
  const { audit } = opts
  const r = apiRoutes(app, { tags: ['admin'] })

  r.get(
    '/admin/staff-actions',
    {
      config: { auth: 'admin' },
      summary: 'Changes made through the staff API, newest first: by operator (member_id) or route prefix',
      querystring: StaffActionQuery,
      response: StaffActionListResponse,
    },
    async (request) => audit.page(request.query),
  )
}
