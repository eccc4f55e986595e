import { z } from 'zod'
import { adminListQuery } from './admin-list.ts'
import { JsonId, PathId } from './params.ts'
import { Platforms } from '#shared/exchange-platforms.ts'

// Platform orders exchanged for courses (issue 14 §2): what operators map, what the console and the /data/* screens
// send (the platforms and shops themselves: shared/exchange-platforms.ts). The API answers 400 naming the field; the
// messages below are what a form shows.

const skuSortKeys = ['id', 'updated_at'] as const

/** GET /api/admin/exchange/skus: the SKU mappings, by platform and part of the SKU id or product name. */
export const ExchangeSkuQuery = adminListQuery(skuSortKeys, '-id').extend({
  platform: z.enum(Platforms).optional(),
  q: z.string().trim().max(60, '搜索内容最多 60 个字').optional(),
})
export type ExchangeSkuQuery = z.output<typeof ExchangeSkuQuery>

const grantFields = {
  product_name: z.string().trim().min(1, '请填写商品名称').max(100, '商品名称最多 100 个字'),
  course_id: JsonId.nullable().default(null),
  vip_days: z.number().int().min(1, 'VIP 天数至少 1 天').max(3650, 'VIP 天数最多 3650 天').nullable().default(null),
  note: z.string().trim().max(200, '备注最多 200 个字').default(''),
}
const oneGrant = (v: { course_id: number | null; vip_days: number | null }) =>
  (v.course_id === null) !== (v.vip_days === null)
const oneGrantMessage = { message: '课程和 VIP 天数二选一', path: ['course_id'] }

/** POST /api/admin/exchange/skus: map a platform SKU to one course or to VIP days. */
export const ExchangeSkuCreate = z
  .strictObject({
    platform: z.enum(Platforms),
    sku_id: z
      .string()
      .trim()
      .min(1, '请填写 SKU 编号')
      .max(64, 'SKU 编号最多 64 个字符')
      .regex(/^[\w.-]+$/, 'SKU 编号只能有字母、数字、下划线、点和短横线'),
    ...grantFields,
  })
  .refine(oneGrant, oneGrantMessage)
export type ExchangeSkuCreate = z.output<typeof ExchangeSkuCreate>

/** PATCH /api/admin/exchange/skus/:id: what it grants, its name and note (platform and SKU id stay). */
export const ExchangeSkuEdit = z.strictObject(grantFields).refine(oneGrant, oneGrantMessage)
export type ExchangeSkuEdit = z.output<typeof ExchangeSkuEdit>

/** An exchange: its grant stands, or was taken back. */
export const ExchangeStatuses = ['granted', 'revoked'] as const

const recordSortKeys = ['id', 'granted_at'] as const

/** GET /api/admin/exchange/records: exchanges by platform, status, member and order number. */
export const ExchangeRecordQuery = adminListQuery(recordSortKeys, '-id').extend({
  platform: z.enum(Platforms).optional(),
  status: z.enum(ExchangeStatuses).optional(),
  member_id: PathId.optional(),
  order_id: z.string().trim().max(64).optional(),
})
export type ExchangeRecordQuery = z.output<typeof ExchangeRecordQuery>

/** POST /api/admin/exchange/records/:id/revoke: take back what one exchange granted, with a reason. */
export const ExchangeRecordRevoke = z.strictObject({
  reason: z.string().trim().min(2, '收回原因至少 2 个字').max(200, '收回原因最多 200 个字'),
})
export type ExchangeRecordRevoke = z.output<typeof ExchangeRecordRevoke>

/** POST /api/tiktok/order2course (and the other shops' order2course): what the buyer pasted (an order number, a voucher code, or the share text). */
export const OrderToCourseBody = z.object({
  order_no: z.string().trim().min(1, '请输入订单号或券码').max(2000, '内容太长了，只需粘贴订单号或券码'),
})
export type OrderToCourseBody = z.output<typeof OrderToCourseBody>
