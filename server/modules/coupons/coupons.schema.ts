import { z } from 'zod'
import { couponKinds, couponScopes } from '#server/db/schema/coupons.ts'
import { envelope } from '#server/http/envelope.ts'

const id = z.number().int().positive().max(2_147_483_647)
const fen = z.number().int().min(1).max(5_000_000)

/** What a coupon takes off and on what: a template's terms, shown again on each member's coupon. */
const couponTerms = {
  kind: z.enum(couponKinds),
  amount_off_fen: z.number().int().nullable(),
  percent_off: z.number().int().nullable(),
  max_off_fen: z.number().int().nullable(),
  min_spend_fen: z.number().int(),
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
  state: z.enum(['available', 'reserved', 'used', 'expired']),
  claimed_at: z.string(),
  expires_at: z.string(),
})
export const ClaimResponse = envelope(MemberCouponView)
export const MyCouponsQuery = z.object({ state: z.enum(['available', 'reserved', 'used', 'expired']).optional() })
export const MyCouponsResponse = envelope(z.object({ list: z.array(MemberCouponView) }))

const when = z.iso.datetime({ offset: true })

export const TemplateCreate = z
  .object({
    name: z.string().trim().min(1).max(40),
    kind: z.enum(couponKinds),
    amount_off_fen: fen.optional(),
    percent_off: z.number().int().min(1).max(99).optional(),
    max_off_fen: fen.optional(),
    min_spend_fen: z.number().int().min(0).max(5_000_000).default(0),
    scope: z.enum(couponScopes).default('all'),
    scope_ids: z.array(id).max(500).default([]),
    claim_from: when.optional(),
    claim_to: when.optional(),
    valid_days: z.number().int().min(1).max(3650).optional(),
    valid_to: when.optional(),
    total_limit: z.number().int().min(1).max(10_000_000).optional(),
    per_member_limit: z.number().int().min(1).max(100).default(1),
  })
  .refine((t) => (t.kind === 'amount' ? t.amount_off_fen !== undefined : t.percent_off !== undefined), {
    message: 'amount 需要 amount_off_fen，percent 需要 percent_off',
    path: ['kind'],
  })
  .refine((t) => t.valid_days !== undefined || t.valid_to !== undefined, {
    message: '需要 valid_days 或 valid_to',
    path: ['valid_days'],
  })
  .refine((t) => t.scope === 'all' || t.scope_ids.length > 0, {
    message: '分类或课程范围需要 scope_ids',
    path: ['scope_ids'],
  })

export const TemplatePatch = z.object({
  name: z.string().trim().min(1).max(40).optional(),
  active: z.boolean().optional(),
  claim_to: when.nullable().optional(),
  total_limit: z.number().int().min(1).max(10_000_000).nullable().optional(),
  per_member_limit: z.number().int().min(1).max(100).optional(),
})
export const TemplateResponse = envelope(CouponTemplateView)
export const TemplateListQuery = z.object({
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
})
export const TemplateListResponse = envelope(
  z.object({ list: z.array(CouponTemplateView), next_cursor: z.number().int().nullable() }),
)
