import { z } from 'zod'
import type { ProviderTrade, RefundResult } from './payments.ts'

// WeChat Pay API v3's wire formats as the adapter (wechatpay.ts) reads them: answers, notifications and the
// states they carry, mapped to the provider-neutral ones of payments.ts.

/** An error answer. */
export const errorBody = z.object({ code: z.string(), message: z.string().default('') })

/** A transaction (query answer, payment notification resource). */
export const transaction = z.object({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_type: z.string().optional(),
  trade_state: z.string(),
  trade_state_desc: z.string().optional(),
  success_time: z.string().optional(),
  amount: z
    .object({
      total: z.number().int().optional(),
      payer_total: z.number().int().optional(),
      currency: z.string().optional(),
    })
    .optional(),
})

/** A refund (refund and refund query answers). */
export const refundBody = z.object({
  refund_id: z.string(),
  out_refund_no: z.string(),
  out_trade_no: z.string().optional(),
  status: z.string(),
  amount: z.object({ refund: z.number().int() }).optional(),
})

/** A notification's envelope; the resource is encrypted with the APIv3 key. */
export const notificationBody = z.object({
  id: z.string().min(1).max(64),
  create_time: z.string().optional(),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string(),
    nonce: z.string(),
    associated_data: z.string().optional(),
    original_type: z.string().optional(),
  }),
})

/** A refund notification's resource. */
export const refundResource = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  out_refund_no: z.string(),
  refund_id: z.string(),
  refund_status: z.string(),
  amount: z.object({ total: z.number().int(), refund: z.number().int() }),
})

/** trade_state → our trade state. */
export const stateOf: Record<string, ProviderTrade['state']> = {
  SUCCESS: 'paid',
  REFUND: 'refunded',
  NOTPAY: 'not_paid',
  USERPAYING: 'not_paid',
  PAYERROR: 'not_paid',
  CLOSED: 'closed',
  REVOKED: 'closed',
}

/** A refund's status → our refund state. */
export const refundStateOf: Record<string, RefundResult['state']> = {
  SUCCESS: 'succeeded',
  PROCESSING: 'processing',
  CLOSED: 'failed',
  ABNORMAL: 'failed',
}

/**
 * Refund request errors that will not go away by sending the same request again on their own: the refund is
 * failed, and an operator retries it (same out_refund_no) once the cause is dealt with, e.g. NOT_ENOUGH (the
 * merchant's balance is short: top it up). Anything else (timeouts, SYSTEM_ERROR, FREQUENCY_LIMITED) leaves the
 * refund processing, and the refund sweep asks again.
 */
export const REFUND_REFUSALS = new Set([
  'NOT_ENOUGH',
  'USER_ACCOUNT_ABNORMAL',
  'RESOURCE_NOT_EXISTS',
  'PARAM_ERROR',
  'INVALID_REQUEST',
  'NO_AUTH',
  'MCH_NOT_EXISTS',
])
