import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { notificationOutcomes, reconciliationKinds } from '#server/db/schema/payments.ts'
import { cursorPage, envelope } from '#server/http/envelope.ts'
import { PathId } from '#shared/api/params.ts'

/** The providers (the orders table's provider column takes the same names). */
const paymentProviders = ['wechat', 'alipay'] as const

// The staff endpoints of the payments module (payments-admin.routes.ts): the notifications received, and the
// daily reconciliation's runs and differences.

const cursor = PathId.optional()
const limit = z.coerce.number().int().min(1).max(100).default(50)
const billDate = z.iso.date().describe('yyyy-MM-dd, Beijing')

/** Where a newest-first list continues: before the row id `cursor`, `limit` rows. */
const page = { cursor, limit }

export const NotificationQuery = z.object({
  outcome: z.enum(notificationOutcomes).optional().describe('e.g. unknown_order: genuine payments of no order of ours'),
  provider: z.enum(paymentProviders).optional(),
  order_no: z.string().trim().min(1).max(40).optional(),
  ...page,
})
export type NotificationQuery = z.output<typeof NotificationQuery>

const NotificationView = z.object({
  id: z.number().int(),
  provider: z.enum(paymentProviders),
  kind: z.enum(['payment', 'refund']),
  notification_id: z.string(),
  order_no: z.string().nullable(),
  verified: z.boolean(),
  outcome: z.enum(notificationOutcomes),
  detail: z.string().nullable(),
  created_at: z.string(),
})
export const NotificationList = cursorPage(NotificationView)
export type NotificationList = z.infer<typeof NotificationList>
export const NotificationListResponse = envelope(NotificationList)

export const RunQuery = z.object({ provider: z.enum(paymentProviders).optional(), ...page })
export type RunQuery = z.output<typeof RunQuery>

export const RunView = z.object({
  id: z.number().int(),
  provider: z.enum(paymentProviders),
  bill_date: z.string(),
  state: z.enum(['done', 'failed']).describe('failed: the bill was not available; the daily job tries again'),
  bill_payments: z.number().int(),
  bill_refunds: z.number().int(),
  differences: z.number().int(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  updated_at: z.string(),
})
export type RunView = z.infer<typeof RunView>
export const RunResponse = envelope(RunView)
export const RunList = cursorPage(RunView)
export type RunList = z.infer<typeof RunList>
export const RunListResponse = envelope(RunList)

export const RunRequest = z.object({
  provider: z.enum(paymentProviders),
  bill_date: billDate,
})

export const DifferenceQuery = z.object({
  provider: z.enum(paymentProviders).optional(),
  bill_date: billDate.optional(),
  kind: z.enum(reconciliationKinds).optional(),
  ...page,
})
export type DifferenceQuery = z.output<typeof DifferenceQuery>

const DifferenceView = z.object({
  id: z.number().int(),
  provider: z.enum(paymentProviders),
  bill_date: z.string(),
  kind: z
    .enum(reconciliationKinds)
    .describe('missing_ours, missing_theirs (not in their bill), amount_differs, state_differs'),
  subject: z.enum(['payment', 'refund']),
  order_no: z.string(),
  refund_no: z.string().nullable(),
  transaction_id: z.string().nullable(),
  our_fen: Fen.nullable(),
  their_fen: Fen.nullable(),
  our_state: z.string().nullable(),
  their_state: z.string().nullable(),
  detail: z.string(),
  created_at: z.string(),
})
export const DifferenceList = cursorPage(DifferenceView)
export type DifferenceList = z.infer<typeof DifferenceList>
export const DifferenceListResponse = envelope(DifferenceList)
