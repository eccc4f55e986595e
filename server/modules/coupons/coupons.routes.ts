import type { FastifyInstance } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { CouponService } from './coupons.service.ts'
import {
  ClaimableResponse,
  ClaimBody,
  ClaimResponse,
  MyCouponsQuery,
  MyCouponsResponse,
  TemplateCreate,
  TemplateListQuery,
  TemplateListResponse,
  TemplateParams,
  TemplatePatch,
  TemplateResponse,
} from './coupons.schema.ts'

interface CouponRoutesOptions {
  coupons: CouponService
}

/** Coupons for members (spec 7: POST /coupon). */
export async function couponRoutes(app: FastifyInstance, opts: CouponRoutesOptions) {
  const { coupons } = opts
  const tags = ['coupons']
  const r = apiRoutes(app, { tags })

  r.get(
    '/coupons/claimable',
    {
      token: false,
      summary: 'Coupons that can be claimed now (with how many I hold, when signed in)',
      response: ClaimableResponse,
    },
    async (request) => coupons.claimable(request.principal?.memberId ?? null),
  )

  r.post(
    '/coupon',
    { config: { auth: 'required' }, summary: 'Claim a coupon', body: ClaimBody, response: ClaimResponse },
    async (request) => coupons.claim(requireRole(request).memberId, request.body.template_id),
  )

  r.get(
    '/coupons',
    { config: { auth: 'required' }, summary: 'My coupons', querystring: MyCouponsQuery, response: MyCouponsResponse },
    async (request) => coupons.mine(requireRole(request).memberId, request.query.state),
  )
}

interface AdminCouponRoutesOptions {
  coupons: CouponService
}

/** Coupon templates for operators (under /api/admin/, admins only). */
export async function adminCouponRoutes(app: FastifyInstance, opts: AdminCouponRoutesOptions) {
  const { coupons } = opts
  const tags = ['admin']
  const config = { auth: 'admin' as const }
  const r = apiRoutes(app, { tags, config })

  r.get(
    '/admin/coupon-templates',
    {
      summary: 'Coupon templates, newest first',
      querystring: TemplateListQuery,
      response: TemplateListResponse,
    },
    async (request) => coupons.listTemplates(request.query),
  )

  r.post(
    '/admin/coupon-templates',
    { summary: 'Add a coupon template', body: TemplateCreate, response: TemplateResponse },
    async (request) => coupons.createTemplate(requireRole(request, 'admin').memberId, request.body),
  )

  r.patch(
    '/admin/coupon-templates/:id',
    {
      summary: 'Change a coupon template (name, on/off, claim end, limits)',
      params: TemplateParams,
      body: TemplatePatch,
      response: TemplateResponse,
    },
    async (request) => coupons.patchTemplate(request.params.id, request.body),
  )
}
