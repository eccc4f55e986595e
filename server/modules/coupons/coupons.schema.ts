import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { couponKinds, couponScopes } from '#server/db/schema/coupons.ts'
import { envelope, listEnvelope } from '#server/http/envelope.ts'
import { CouponStates } from '#shared/api/admin-coupons.ts'
import { JsonId as id } from '#shared/api/params.ts'

/** What a coupon takes off and on what: a template's terms, shown again on each member's coupon. */
const couponTerms = {
  kind: z.enum(couponKinds),
  amount_off_fen: Fen.nullable(),
  percent_off: z.number().int().nullable(),
  max_off_fen: Fen.nullable(),
  min_spend_fen: Fen,
  scope: z.enum(couponScopes),
}

export const CouponTemplateView = z.object({
  id: z.number().int(),
  name: z.string(),
  ...couponTerms,
  scope_ids: z.array(z.number().int()),
  claim_from: z.string().nullable(),
  claim_to: z.string().nullable(),
  valid_days: z.number().int().nullable(),
  valid_to: z.string().nullable(),
  total_limit: z.number().int().nullable(),
  per_member_limit: z.number().int(),
  claimed_count: z.number().int(),
  active: z.boolean(),
})

export const ClaimableResponse = envelope(
  z.object({ list: z.array(CouponTemplateView.extend({ claimed_by_me: z.number().int() })) }),
)

export const ClaimBody = z.object({ template_id: id })

export const MemberCouponView = z.object({
  coupon_id: z.number().int(),
  template_id: z.number().int(),
  name: z.string(),
  ...couponTerms,
  /** available, reserved (by a pending order), used, expired. */
  state: z.enum(CouponStates),
  claimed_at: z.string(),
  expires_at: z.string(),
})
export const ClaimResponse = envelope(MemberCouponView)
export const MyCouponsQuery = z.object({ state: z.enum(CouponStates).optional() })
export const MyCouponsResponse = listEnvelope(MemberCouponView)

export const TemplateResponse = envelope(CouponTemplateView)

/** A template in the console's list: also how many of its coupons were used. */
export const StaffCouponTemplate = CouponTemplateView.extend({ used_count: z.number().int() })

/** An issued coupon in the console's list: whose, of which template, its state. */
export const IssuedCoupon = z.object({
  id: z.number().int(),
  template_id: z.number().int(),
  template_name: z.string(),
  member_id: z.number().int(),
  phone: z.string().nullable(),
  nickname: z.string(),
  state: z.enum(CouponStates),
  order_id: z.number().int().nullable(),
  claimed_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
})
export type IssuedCoupon = z.infer<typeof IssuedCoupon>
