import { z } from 'zod'
import { adminListQuery, SearchText } from './admin-list.ts'

// VIP plans in the operators' console: the list's query and rows, the API's body (integer fen) and the console's
// form (yuan), one source.

/** A VIP plan as members see it (GET /v2/vip). */
interface VipPlan {
  id: number
  name: string
  days: number
  price_fen: number
  original_price_fen: number | null
  description: string
  badge: string | null
}

/** A plan as operators list it: also whether it is on sale and its place in the list. */
export interface StaffVipPlan extends VipPlan {
  active: boolean
  sort: number
}

const planSortKeys = ['sort', 'id', 'price_fen'] as const

/** GET /api/admin/vip-plans: every plan, on sale or not, in display order (`sort`) unless told otherwise. */
export const VipPlanQuery = adminListQuery(planSortKeys, 'sort').extend({
  active: z.enum(['true', 'false']).optional(),
  q: SearchText.optional().describe('Part of the name'),
})
export type VipPlanQuery = z.output<typeof VipPlanQuery>

const fen = z.number().int('价格最多两位小数').min(1, '价格不能小于 0.01 元').max(5_000_000, '价格最多 50000 元')

/** POST /api/admin/vip-plans. */
export const VipPlanCreate = z.object({
  name: z.string().trim().min(1, '请填写名称').max(20, '名称最多 20 个字'),
  days: z.number().int('天数须为整数').min(1, '天数至少 1 天').max(3660, '天数最多 3660 天'),
  price_fen: fen,
  original_price_fen: fen.nullable().optional(),
  description: z.string().trim().max(200, '说明最多 200 个字').default(''),
  badge: z.string().trim().max(8, '角标最多 8 个字').nullable().optional(),
  active: z.boolean().default(true),
  sort: z.number().int().min(0, '排序不能小于 0').max(10_000, '排序最大 10000').default(0),
})
/** PATCH /api/admin/vip-plans/:id. */
export const VipPlanPatch = VipPlanCreate.partial()

const yuan = z
  .number('请填写价格')
  .min(0.01, '价格不能小于 0.01 元')
  .max(50_000, '价格最多 50000 元')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, '价格最多两位小数')

/** The console's form: prices in yuan (sent as fen), the other fields as the API checks them. */
export const VipPlanForm = VipPlanCreate.omit({ price_fen: true, original_price_fen: true }).extend({
  price_yuan: yuan,
  original_yuan: yuan.nullable().optional(),
})
