import { adminPlugin, apiPlugin, GroupAccess } from '#server/http/route.ts'
import type { PointService } from './points.service.ts'
import { AdjustBody, AdjustResponse, PointsQuery, PointsResponse } from './points.schema.ts'

/** Points (spec 7: GET /points; screen /points). */
export const pointRoutes = apiPlugin({ tags: ['points'] }, (r, { points }: { points: PointService }) => {
  r.get(
    '/points',
    {
      auth: 'required',
      summary: 'My points balance, the rules and my ledger',
      querystring: PointsQuery,
      response: PointsResponse,
    },
    async (request, memberId) => points.summary(memberId, request.query),
  )
})

/**
 * Points adjustments by operators (admins only), recorded as ledger entries with who and why. A member's ledger is
 * the console's ledger list filtered by member (GET /api/admin/points/ledger?member_id=, points-ledger.routes.ts).
 */
export const adminPointRoutes = adminPlugin(GroupAccess.points, (r, { points }: { points: PointService }) => {
  r.post(
    '/admin/points/adjust',
    {
      idempotent: true,
      summary: 'Add or take points with a reason (send an Idempotency-Key: a retry must not add them twice)',
      body: AdjustBody,
      response: AdjustResponse,
    },
    async ({ body }, staffId) => points.adjust(staffId, body.member_id, body.delta, body.note),
  )
})
