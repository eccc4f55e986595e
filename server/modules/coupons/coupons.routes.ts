import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { ok } from '#server/http/envelope.ts'
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

const security = [{ token: [] }]

interface CouponRoutesOptions {
  coupons: CouponService
}

/** Coupons for members (spec 7: POST /coupon). */
export async function couponRoutes(app: FastifyInstance, opts: CouponRoutesOptions) {
  const { coupons } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const tags = ['coupons']

  r.get(
    '/coupons/claimable',
    {
      schema: {
        tags,
        summary: 'Coupons that can be claimed now (with how many I hold, when signed in)',
        response: { 200: ClaimableResponse },
      },
    },
    async (request) => ok(await coupons.claimable(request.principal?.memberId ?? null)),
  )

  r.post(
    '/coupon',
    {
      config: { auth: 'required' },
      schema: { tags, security, summary: 'Claim a coupon', body: ClaimBody, response: { 200: ClaimResponse } },
    },
    async (request) => ok(await coupons.claim(requireRole(request).memberId, request.body.template_id)),
  )

  r.get(
    '/coupons',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'My coupons',
        querystring: MyCouponsQuery,
        response: { 200: MyCouponsResponse },
      },
    },
    async (request) => ok(await coupons.mine(requireRole(request).memberId, request.query.state)),
  )
}

interface AdminCouponRoutesOptions {
  coupons: CouponService
}

/** Coupon templates for operators (under /api/admin/, admins only). */
export async function adminCouponRoutes(app: FastifyInstance, opts: AdminCouponRoutesOptions) {
  const { coupons } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const tags = ['admin']
  const config = { auth: 'admin' as const }

  r.get(
    '/admin/coupon-templates',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Coupon templates, newest first',
        querystring: TemplateListQuery,
        response: { 200: TemplateListResponse },
      },
    },
    async (request) => ok(await coupons.listTemplates(request.query)),
  )

  r.post(
    '/admin/coupon-templates',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add a coupon template',
        body: TemplateCreate,
        response: { 200: TemplateResponse },
      },
    },
    async (request) => ok(await coupons.createTemplate(requireRole(request, 'admin').memberId, request.body)),
  )

  r.patch(
    '/admin/coupon-templates/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Change a coupon template (name, on/off, claim end, limits)',
        params: TemplateParams,
        body: TemplatePatch,
        response: { 200: TemplateResponse },
      },
    },
    async (request) => ok(await coupons.patchTemplate(request.params.id, request.body)),
  )
}
