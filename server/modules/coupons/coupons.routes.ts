import { adminPlugin, apiPlugin } from '#server/http/route.ts'
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
  TemplatePatch,
  TemplateResponse,
} from './coupons.schema.ts'

/** Coupons for members (spec 7: POST /coupon). */
export const couponRoutes = apiPlugin({ tags: ['coupons'] }, (r, { coupons }: { coupons: CouponService }) => {
  r.get(
    '/coupons/claimable',
    {
      token: false,
      summary: 'Coupons that can be claimed now (with how many I hold, when signed in)',
      response: ClaimableResponse,
    },
    async (_request, memberId) => coupons.claimable(memberId),
  )

  r.post(
    '/coupon',
    { auth: 'required', summary: 'Claim a coupon', body: ClaimBody, response: ClaimResponse },
    async (request, memberId) => coupons.claim(memberId, request.body.template_id),
  )

  r.get(
    '/coupons',
    { auth: 'required', summary: 'My coupons', querystring: MyCouponsQuery, response: MyCouponsResponse },
    async (request, memberId) => coupons.mine(memberId, request.query.state),
  )
})

/** Coupon templates for operators (under /api/admin/, admins only). */
export const adminCouponRoutes = adminPlugin(
  { read: 'catalogue.read', write: 'marketing.edit' },
  (r, { coupons }: { coupons: CouponService }) => {
    r.records('/admin/coupon-templates', {
      response: TemplateResponse,
      list: {
        summary: 'Coupon templates, newest first',
        querystring: TemplateListQuery,
        response: TemplateListResponse,
        handler: (query) => coupons.listTemplates(query),
      },
      create: {
        summary: 'Add a coupon template',
        body: TemplateCreate,
        handler: (body, staffId) => coupons.createTemplate(staffId, body),
      },
      edit: {
        summary: 'Change a coupon template (name, on/off, claim end, limits)',
        body: TemplatePatch,
        handler: (id, body) => coupons.patchTemplate(id, body),
      },
    })
  },
)
