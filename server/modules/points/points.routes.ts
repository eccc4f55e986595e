import type { FastifyInstance } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { PointService } from './points.service.ts'
import { AdjustBody, AdjustResponse, PointsQuery, PointsResponse } from './points.schema.ts'

interface PointRoutesOptions {
  points: PointService
}

/** Points (spec 7: GET /points; screen /points). */
export async function pointRoutes(app: FastifyInstance, opts: PointRoutesOptions) {
  const { points } = opts
  const r = apiRoutes(app, { tags: ['points'] })

  r.get(
    '/points',
    {
      config: { auth: 'required' },
      summary: 'My points balance, the rules and my ledger',
      querystring: PointsQuery,
      response: PointsResponse,
    },
    async (request) => points.summary(requireRole(request).memberId, request.query),
  )
}

interface AdminPointRoutesOptions {
  points: PointService
}

/** Points adjustments by operators (admins only), recorded as ledger entries with who and why. */
export async function adminPointRoutes(app: FastifyInstance, opts: AdminPointRoutesOptions) {
  const { points } = opts
  const r = apiRoutes(app, { tags: ['admin'] })

  r.post(
    '/admin/points/adjust',
    {
      config: { auth: 'admin', idempotent: true },
      summary: 'Add or take points with a reason (send an Idempotency-Key: a retry must not add them twice)',
      body: AdjustBody,
      response: AdjustResponse,
    },
    async (request) =>
      points.adjust(
        requireRole(request, 'admin').memberId,
        request.body.member_id,
        request.body.delta,
        request.body.note,
      ),
  )
}
