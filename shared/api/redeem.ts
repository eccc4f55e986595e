import { z } from 'zod'
import { adminListQuery } from './admin-list.ts'
import { JsonId as id, PathId } from './params.ts'

// Redeem codes (issue 14 §1): what the console sends to create a batch and list batches and codes, and what a
// learner's preview answers. The console's forms validate with the same schemas.

/** The most codes one batch may hold. */
export const REDEEM_BATCH_MAX = 100_000

/** POST /api/admin/redeem/batches: answered with the codes as a CSV file, once. */
export const RedeemBatchCreate = z
  .strictObject({
    name: z.string().trim().min(2, '名称至少 2 个字').max(40, '名称最多 40 个字'),
    course_ids: z.array(id).max(50, '一批最多 50 门课程').default([]),
    vip_days: z.number().int().min(1, 'VIP 天数至少 1 天').max(3660, 'VIP 天数最多 3660 天').nullable().default(null),
    count: z.number().int().min(1, '至少 1 个').max(REDEEM_BATCH_MAX, `一批最多 ${REDEEM_BATCH_MAX} 个`),
    valid_from: z.iso.datetime({ offset: true }),
    valid_until: z.iso.datetime({ offset: true }),
    uses_per_code: z.number().int().min(1, '至少 1 次').max(10_000, '最多 10000 次').default(1),
    per_member_limit: z.number().int().min(1, '至少 1 个').max(10_000, '最多 10000 个').default(1),
    note: z.string().trim().max(200, '备注最多 200 个字').default(''),
  })
  .refine((b) => b.course_ids.length > 0 !== (b.vip_days !== null), {
    message: '请选择课程或填写 VIP 天数（二选一）',
    path: ['course_ids'],
  })
  .refine((b) => Date.parse(b.valid_until) > Date.parse(b.valid_from), {
    message: '截止时间必须晚于开始时间',
    path: ['valid_until'],
  })
export type RedeemBatchCreate = z.output<typeof RedeemBatchCreate>

const batchSortKeys = ['created_at', 'valid_until', 'id'] as const

/** GET /api/admin/redeem/batches. */
export const RedeemBatchQuery = adminListQuery(batchSortKeys, '-created_at').extend({
  q: z.string().trim().max(40, '搜索内容最多 40 个字').optional(),
  state: z.enum(['active', 'disabled']).optional(),
})
export type RedeemBatchQuery = z.output<typeof RedeemBatchQuery>

/** A redeem code's state. */
export const RedeemCodeStates = ['unused', 'used', 'revoked'] as const

/** GET /api/admin/redeem/codes?batch_id=…: `code` finds one code as typed (any case, spaces or dashes). */
export const RedeemCodeQuery = adminListQuery(['serial'] as const, 'serial').extend({
  batch_id: PathId,
  state: z.enum(RedeemCodeStates).optional(),
  code: z.string().trim().max(40).optional(),
})
export type RedeemCodeQuery = z.output<typeof RedeemCodeQuery>

/** POST /api/admin/redeem/codes/:id/revoke. */
export const RedeemCodeRevoke = z.strictObject({
  reason: z.string().trim().min(2, '作废原因至少 2 个字').max(200, '作废原因最多 200 个字'),
})

/** GET /api/redeem_code?data=… and POST /api/redeem_code/exchange { data }: the code as the member typed it. */
export const RedeemCodeInput = z.object({
  data: z.string().trim().min(1, '请输入兑换码').max(40, '兑换码最多 40 个字符'),
})

/** What a code gives: its courses (titles) or VIP days, and until when it can be used. */
export const RedeemPreview = z.object({
  code: z.string().describe('The code, grouped for reading'),
  batch_name: z.string(),
  courses: z.array(z.object({ id: z.number().int(), title: z.string(), owned: z.boolean() })),
  vip_days: z.number().int().nullable(),
  valid_until: z.string(),
})
export type RedeemPreview = z.infer<typeof RedeemPreview>

/** What an exchange granted. */
export const RedeemResult = z.object({
  courses: z.array(z.object({ id: z.number().int(), title: z.string() })),
  vip_days: z.number().int().nullable(),
  vip_expires_at: z.string().nullable(),
})
export type RedeemResult = z.infer<typeof RedeemResult>

/** A batch's state as the console and its CSV export name it. */
export const RedeemBatchStateNames = {
  active: '可用',
  scheduled: '未开始',
  expired: '已过期',
  disabled: '已停用',
} as const
