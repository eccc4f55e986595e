import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { ExchangeRecordPage } from '#shared/api/exchange-records.ts'
import { RedeemCodeStates, RedeemPreview, RedeemResult } from '#shared/api/redeem.ts'

/** A batch as the console lists it. */
export const RedeemBatchRow = z.object({
  id: z.number().int(),
  name: z.string(),
  grants: z.string().describe('What each use grants, in words'),
  course_ids: z.array(z.number().int()),
  vip_days: z.number().int().nullable(),
  code_count: z.number().int(),
  used_codes: z.number().int(),
  revoked_codes: z.number().int(),
  uses_per_code: z.number().int(),
  per_member_limit: z.number().int(),
  valid_from: z.string(),
  valid_until: z.string(),
  note: z.string(),
  state: z.enum(['active', 'disabled', 'expired', 'scheduled']),
  created_at: z.string(),
})
export type RedeemBatchRow = z.infer<typeof RedeemBatchRow>

/** A code of a batch as the console lists it: never the code itself, which the server does not keep. */
export const RedeemCodeRow = z.object({
  id: z.number().int(),
  serial: z.number().int(),
  state: z.enum(RedeemCodeStates),
  uses: z.number().int(),
  member_id: z.number().int().nullable().describe('Who used it last'),
  member: z.string().nullable(),
  used_at: z.string().nullable(),
})
export type RedeemCodeRow = z.infer<typeof RedeemCodeRow>

export const RedeemBatchResponse = envelope(RedeemBatchRow)
export const RedeemRevokeResponse = envelope(
  z.object({ id: z.number().int(), revoked_uses: z.number().int(), revoked_courses: z.number().int() }),
)
export const RedeemPreviewResponse = envelope(RedeemPreview)
export const RedeemResultResponse = envelope(RedeemResult)
export const ExchangeRecordResponse = envelope(ExchangeRecordPage)
