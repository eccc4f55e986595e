import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'

export const StaffActionQuery = z.object({
  member_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** A route prefix, e.g. /api/admin/refunds */
  route: z.string().trim().startsWith('/api/').max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
})

const StaffActionView = z.object({
  id: z.number().int(),
  member_id: z.number().int(),
  nickname: z.string(),
  phone: z.string().nullable(),
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

export const StaffActionList = z.object({ list: z.array(StaffActionView), next_cursor: z.number().int().nullable() })
export type StaffActionList = z.infer<typeof StaffActionList>

export const StaffActionListResponse = envelope(StaffActionList)
