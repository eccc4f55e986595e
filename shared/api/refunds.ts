import { z } from 'zod'

// Refund decisions: the API's schemas, which the console's forms validate with too.

export const ApproveBody = z.object({
  /** Less than the amount asked for makes a partial refund; default the whole remaining amount. */
  amount_fen: z.number().int().min(1).max(5_000_000).optional(),
  note: z.string().trim().max(200, { error: '备注最多 200 字' }).optional(),
})

export const RejectBody = z.object({
  note: z
    .string({ error: '请填写拒绝原因（学员会看到）' })
    .trim()
    .min(2, { error: '拒绝原因至少 2 个字（学员会看到）' })
    .max(200, { error: '拒绝原因最多 200 字' }),
})
