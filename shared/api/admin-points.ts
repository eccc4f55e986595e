import { z } from 'zod'
import { adminListQuery, BeijingDay } from './admin-list.ts'
import { PointReasons } from '#shared/point-reasons.ts'
import { OptionalIdQuery } from './params.ts'

// Points in the operators' console (request schemas; the console's forms validate with the same ones).

const ledgerSortKeys = ['id'] as const

/** GET /api/admin/points/ledger: every member's ledger entries, newest first, by member, reason and day. */
export const PointLedgerQuery = adminListQuery(ledgerSortKeys, '-id').extend({
  member_id: OptionalIdQuery,
  reason: z.enum(PointReasons).optional(),
  from: BeijingDay.optional(),
  to: BeijingDay.optional(),
})
export type PointLedgerQuery = z.output<typeof PointLedgerQuery>

/** The console's adjustment form: a signed whole number of points and why (POST /api/admin/points/adjust). */
export const PointAdjustForm = z.object({
  delta: z
    .number('请填写积分数')
    .int('积分须为整数')
    .min(-10_000_000, '一次最多扣减 1000 万')
    .max(10_000_000, '一次最多增加 1000 万')
    .refine((d) => d !== 0, '积分不能为 0'),
  note: z.string().trim().min(2, '调整原因至少 2 个字').max(200, '调整原因最多 200 个字'),
})
