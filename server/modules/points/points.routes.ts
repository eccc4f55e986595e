import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { ok } from '#server/http/envelope.ts'
import type { PointService } from './points.service.ts'
import { AdjustBody, AdjustResponse, PointsQuery, PointsResponse } from './points.schema.ts'

const security = [{ token: [] }]

interface PointRoutesOptions {
  points: PointService
}

/** Points (spec 7: GET /points; screen /points). */
export async function pointRoutes(app: FastifyInstance, opts: PointRoutesOptions) {
  const { points } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  r.get(
    '/points',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['points'],
        security,
        summary: 'My points balance, the rules and my ledger',
        querystring: PointsQuery,
        response: { 200: PointsResponse },
      },
    },
    async (request) => ok(await points.summary(requireRole(request).memberId, request.query)),
  )
}

interface AdminPointRoutesOptions {
  points: PointService
}

/** Points adjustments by operators (admins only), recorded as ledger entries with who and why. */
export async function adminPointRoutes(app: FastifyInstance, opts: AdminPointRoutesOptions) {
  const { points } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  r.post(
    '/admin/points/adjust',
    {
      config: { auth: 'admin', idempotent: true },
      schema: {
        tags: ['admin'],
        security,
        summary: 'Add or take points with a reason (send an Idempotency-Key: a retry must not add them twice)',
        body: AdjustBody,
        response: { 200: AdjustResponse },
      },
    },
    async (request) =>
      ok(
        await points.adjust(
          requireRole(request, 'admin').memberId,
          request.body.member_id,
          request.body.delta,
          request.body.note,
        ),
      ),
  )
}
