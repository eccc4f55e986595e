import { z } from 'zod'
import { pointReasons } from '#server/db/schema/points.ts'
import { envelope } from '#server/http/envelope.ts'
import { JsonId } from '#shared/api/params.ts'

const PointEntryView = z.object({
  id: z.number().int(),
  delta: z.number().int(),
  balance_after: z.number().int(),
  reason: z.enum(pointReasons),
  order_no: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
})

export const PointsQuery = z.object({
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})
const PointsSummary = z.object({
  balance: z.number().int(),
  /** What one point is worth at checkout (fen), the share of a price points may pay (percent), points per yuan paid. */
  fen_per_point: z.number().int(),
  max_percent: z.number().int(),
  earn_per_yuan: z.number().int(),
  list: z.array(PointEntryView),
  next_cursor: z.number().int().nullable(),
})
export const PointsResponse = envelope(PointsSummary)

export const AdjustBody = z.object({
  member_id: JsonId,
  /** Positive adds, negative takes (never below zero). */
  delta: z
    .number()
    .int()
    .min(-10_000_000)
    .max(10_000_000)
    .refine((d) => d !== 0, '不能为 0'),
  note: z.string().trim().min(2).max(200),
})
export const AdjustResponse = envelope(z.object({ member_id: z.number().int(), balance: z.number().int() }))

/** A ledger entry in the console's list of every member's points (GET /api/admin/points/ledger). */
export const LedgerEntry = PointEntryView.extend({
  member_id: z.number().int(),
  phone: z.string().nullable(),
  nickname: z.string(),
  /** Who made the change as stored ("system", "admin:100002", "member:100001", "provider:wechat"). */
  actor: z.string(),
  /** The same, named: 系统, 学员本人, 微信支付, the staff member's name (员工), another member's nickname. */
  actor_name: z.string(),
})
export type LedgerEntry = z.infer<typeof LedgerEntry>
