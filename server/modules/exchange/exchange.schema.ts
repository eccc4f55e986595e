import { z } from 'zod'
import { envelope, listEnvelope } from '#server/http/envelope.ts'
import { ExchangeStatuses } from '#shared/api/exchange.ts'
import { Platforms } from '#shared/exchange-platforms.ts'

// Answers of the exchange endpoints (requests: shared/api/exchange.ts).

export const ExchangeResult = z.object({
  platform: z.enum(Platforms),
  order_id: z.string(),
  already: z.boolean().describe('true: this member had exchanged this order before; nothing new was granted'),
  courses: z.array(z.object({ id: z.number().int(), title: z.string(), cover: z.string() })),
  vip_days: z.number().int(),
})
export type ExchangeResult = z.infer<typeof ExchangeResult>
export const ExchangeResponse = envelope(ExchangeResult)

export const UnexchangedOrder = z.object({
  platform: z.enum(Platforms),
  order_id: z.string(),
  paid_at: z.string().nullable(),
  lines: z.array(z.object({ line_id: z.string(), product_name: z.string(), exchanged: z.boolean() })),
})
export type UnexchangedOrder = z.infer<typeof UnexchangedOrder>
export const UnexchangedResponse = listEnvelope(UnexchangedOrder)

export const ExchangeSkuRow = z.object({
  id: z.number().int(),
  platform: z.enum(Platforms),
  sku_id: z.string(),
  product_name: z.string(),
  course_id: z.number().int().nullable(),
  course_title: z.string().nullable(),
  vip_days: z.number().int().nullable(),
  note: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type ExchangeSkuRow = z.infer<typeof ExchangeSkuRow>

export const ExchangeRecordRow = z.object({
  id: z.number().int(),
  kind: z.literal('exchange'),
  platform: z.enum(Platforms),
  platform_name: z.string(),
  order_id: z.string(),
  line_id: z.string(),
  sku_id: z.string(),
  product_name: z.string(),
  member_id: z.number().int(),
  member_phone: z.string().nullable(),
  course_id: z.number().int().nullable(),
  course_title: z.string().nullable(),
  vip_days: z.number().int().nullable(),
  status: z.enum(ExchangeStatuses),
  granted_at: z.string(),
  revoked_at: z.string().nullable(),
  revoke_reason: z.string().nullable(),
})
export type ExchangeRecordRow = z.infer<typeof ExchangeRecordRow>
export const ExchangeRecordResponse = envelope(
  z.object({ revoked: z.number().int(), voucher_returned: z.boolean().describe('Douyin voucher verify cancelled') }),
)
