import { z } from 'zod'
import { ExchangeRecordKinds } from '#shared/exchange-record-kinds.ts'

// The member's exchange record (/order4): courses and VIP days that came without a checkout. Each way in is one
// kind of record from its own source (`exchangeRecordSources` in server/use-cases/list-exchange-records.ts): a new
// way in (platform orders) adds its kind to shared/exchange-record-kinds.ts and its source to that list.

export const ExchangeRecord = z.object({
  kind: z.enum(ExchangeRecordKinds),
  /** Unique within the kind (an order number, a use id). */
  id: z.string(),
  title: z.string().describe('What it gave: course titles or VIP days'),
  detail: z.string().describe('Where it came from: the points spent, the batch, the platform order'),
  at: z.string().describe('When (ISO 8601)'),
  state: z.enum(['active', 'revoked']),
  state_note: z.string().nullable().describe('Why it no longer counts, when revoked'),
  course_id: z.number().int().nullable().describe('The course to start learning, when it gave one'),
  link: z.string().nullable().describe('A page with more (an order detail)'),
})
export type ExchangeRecord = z.infer<typeof ExchangeRecord>

export const ExchangeRecordQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{13}_\d{1,10}$/, '格式不正确')
    .optional()
    .describe('next_cursor of the previous page'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
})

export const ExchangeRecordPage = z.object({ list: z.array(ExchangeRecord), next_cursor: z.string().nullable() })
export type ExchangeRecordPage = z.infer<typeof ExchangeRecordPage>
