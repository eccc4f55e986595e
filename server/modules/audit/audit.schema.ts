import { z } from 'zod'
import { adminListQuery, SearchText } from '#shared/api/admin-list.ts'

export const StaffActionQuery = adminListQuery(['created_at'], '-created_at').extend({
  /** The operator's member id or phone. */
  q: SearchText.optional(),
  /** A route prefix, e.g. /api/admin/refunds */
  route: z.string().trim().startsWith('/api/').max(200).optional(),
})

export const StaffActionView = z.object({
  id: z.number().int(),
  member_id: z.number().int(),
  nickname: z.string(),
  phone: z.string().nullable(),
  /** What the operator did, by name (action-names.ts): 调整积分, 隐藏评论, 上架课程, 授权员工 … */
  action: z.string(),
  /** What it was about, in a line (action-details.ts): the member, the course, the amount, the reason. */
  details: z.string(),
  /** How it ended: 成功, or 失败 with the code table's words (失败：没有权限). */
  result: z.string(),
  method: z.string(),
  route: z.string(),
  url: z.string(),
  params: z.record(z.string(), z.unknown()).nullable(),
  body: z.unknown(),
  status: z.number().int(),
  code: z.number().int().nullable(),
  request_id: z.string(),
  created_at: z.string(),
})

export type StaffActionQuery = z.output<typeof StaffActionQuery>

export type StaffAction = z.infer<typeof StaffActionView>
