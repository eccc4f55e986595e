import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { Services } from '#server/services.ts'
import { listStaffActions } from './audit.repository.ts'
import { StaffActionListResponse, StaffActionQuery } from './audit.schema.ts'

/** What operators did through the staff API (admins only): who, when, what they sent and how it ended. */
export async function adminAuditRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { db } = opts.services
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
    async (request) => {
      const q = request.query
      const rows = await listStaffActions(db, {
        memberId: q.member_id,
        route: q.route,
        before: q.cursor,
        limit: q.limit + 1,
      })
      const page = rows.slice(0, q.limit)
      return ok({
        list: page.map(({ action: a, nickname, phone }) => ({
          id: a.id,
          member_id: a.memberId,
          nickname,
          phone,
          method: a.method,
          route: a.route,
          url: a.url,
          params: a.params ?? null,
          body: a.body ?? null,
          status: a.status,
          code: a.code,
          request_id: a.requestId,
          created_at: a.createdAt.toISOString(),
        })),
        next_cursor: rows.length > q.limit ? page[page.length - 1]!.action.id : null,
      })
    },
  )
}
