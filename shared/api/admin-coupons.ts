import { z } from 'zod'
import { adminListQuery, BeijingDay } from './admin-list.ts'
import { JsonId as id, OptionalIdQuery } from './params.ts'

// Coupons in the operators' console (request schemas; the console's forms validate with the same ones). Amounts
// are integer fen on the wire; the console's forms take yuan and send fen.

const fen = z.number().int('金额最多两位小数').min(1, '金额至少 0.01 元').max(5_000_000, '金额最多 50000 元')
const when = z.iso.datetime({ offset: true, message: '时间格式不正确' })
const name = z.string().trim().min(1, '请填写名称').max(40, '名称最多 40 个字')
const totalLimit = z.number().int().min(1, '总量至少 1 张').max(10_000_000, '总量最多 1000 万张')
const perMember = z.number().int().min(1, '每人至少 1 张').max(100, '每人最多 100 张')

const CouponKinds = ['amount', 'percent'] as const
const CouponScopes = ['all', 'category', 'courses'] as const

/** POST /api/admin/coupon-templates. */
export const TemplateCreate = z
  .object({
    name,
    kind: z.enum(CouponKinds),
    amount_off_fen: fen.optional(),
    percent_off: z.number().int().min(1, '折扣 1–99').max(99, '折扣 1–99').optional(),
    max_off_fen: fen.optional(),
    min_spend_fen: z.number().int().min(0).max(5_000_000, '门槛最多 50000 元').default(0),
    scope: z.enum(CouponScopes).default('all'),
    scope_ids: z.array(id).max(500).default([]),
    claim_from: when.optional(),
    claim_to: when.optional(),
    valid_days: z.number().int().min(1, '有效天数至少 1 天').max(3650, '有效天数最多 3650 天').optional(),
    valid_to: when.optional(),
    total_limit: totalLimit.optional(),
    per_member_limit: perMember.default(1),
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
export type TemplateCreate = z.output<typeof TemplateCreate>

/** PATCH /api/admin/coupon-templates/:id: name, on/off, claim end, limits. */
export const TemplatePatch = z.object({
  name: name.optional(),
  active: z.boolean().optional(),
  claim_to: when.nullable().optional(),
  total_limit: totalLimit.nullable().optional(),
  per_member_limit: perMember.optional(),
})
export type TemplatePatch = z.output<typeof TemplatePatch>

const templateSortKeys = ['id', 'claimed_count'] as const

/** GET /api/admin/coupon-templates: templates with how many were issued and used. */
export const TemplateListQuery = adminListQuery(templateSortKeys, '-id').extend({
  active: z.enum(['true', 'false']).optional(),
  q: z.string().trim().max(40, '搜索内容最多 40 个字').optional(),
})
export type TemplateListQuery = z.output<typeof TemplateListQuery>

/** An issued coupon's state: available, reserved (by a pending order), used, expired. */
export const CouponStates = ['available', 'reserved', 'used', 'expired'] as const

const issuedSortKeys = ['id', 'claimed_at', 'used_at'] as const

/** GET /api/admin/coupons: issued coupons by template, state, member and claiming day. */
export const IssuedCouponQuery = adminListQuery(issuedSortKeys, '-id').extend({
  template_id: OptionalIdQuery,
  member_id: OptionalIdQuery,
  state: z.enum(CouponStates).optional(),
  from: BeijingDay.optional(),
  to: BeijingDay.optional(),
})
export type IssuedCouponQuery = z.output<typeof IssuedCouponQuery>
