import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, apiPlugin, GroupAccess } from '#server/http/route.ts'
import { IssuedCouponQuery, TemplateCreate, TemplateListQuery, TemplatePatch } from '#shared/api/admin-coupons.ts'
import type { CouponAdmin, CouponService } from './coupons.service.ts'
import {
  ClaimableResponse,
  ClaimBody,
  ClaimResponse,
  MyCouponsQuery,
  MyCouponsResponse,
  IssuedCoupon,
  StaffCouponTemplate,
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

/**
 * Coupons in the operators' console (under /api/admin/): templates (list with issued and used counts, add, change,
 * switch off with `active: false`) and the issued coupons by template and state, with CSV.
 */
export const adminCouponRoutes = adminPlugin(
  GroupAccess.marketing,
  (r, { coupons, couponAdmin }: { coupons: CouponService; couponAdmin: CouponAdmin }) => {
    // Permission: operator (marketing); reading: operator and finance (marketing.read), never a teacher.
    listRoute(r, '/admin/coupon-templates', {
      summary: 'Coupon templates, on or off, by name, with how many were issued and used',
      querystring: TemplateListQuery,
      row: StaffCouponTemplate,
      list: (q) => couponAdmin.templates(q),
    })
    r.records('/admin/coupon-templates', {
      response: TemplateResponse,
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
    listRoute(r, '/admin/coupons', {
      summary: 'Issued coupons by template, state (available, reserved, used, expired), member and claiming day',
      querystring: IssuedCouponQuery,
      row: IssuedCoupon,
      list: couponAdmin.issued,
    })
  },
)
