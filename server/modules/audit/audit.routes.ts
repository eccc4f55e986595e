import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { Services } from '#server/services.ts'
import { StaffActionListResponse, StaffActionQuery } from './audit.schema.ts'

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export async function adminAuditRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { audit } = opts.services
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
