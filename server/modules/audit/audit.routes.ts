import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { AuditService } from './audit.service.ts'
import { StaffActionListResponse, StaffActionQuery } from './audit.schema.ts'

interface AdminAuditRoutesOptions {
  audit: AuditService
}

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export async function adminAuditRoutes(app: FastifyInstance, opts: AdminAuditRoutesOptions) {
  const { audit } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.get(
    '/admin/staff-actions',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        security: [{ token: [] }],
        summary: 'Changes made through the staff API, newest first: by operator (member_id) or route prefix',
        querystring: StaffActionQuery,
        response: { 200: StaffActionListResponse },
      },
    },
    async (request) => ok(await audit.page(request.query)),
  )
}
