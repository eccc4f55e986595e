import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { refundKinds, refundStates } from '#server/db/schema/refunds.ts'
import { envelope } from '#server/http/envelope.ts'
import { adminListQuery, SearchText } from '#shared/api/admin-list.ts'

/** A course a per-course refund covers, with its share of what was paid. */
export const RefundLineView = z.object({
  item_id: z.number().int(),
  course_id: z.number().int().nullable(),
  title: z.string(),
  amount_fen: Fen,
})

export const RefundView = z.object({
  refund_no: z.string(),
  order_no: z.string(),
  kind: z.enum(refundKinds),
  state: z.enum(refundStates).describe('requested → processing → succeeded | failed; or rejected'),
  amount_fen: Fen,
  reason: z.string(),
  decision_note: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** A per-course refund of a bundle or favourites order: the courses it covers (absent for a whole refund). */
  lines: z.array(RefundLineView).optional(),
})

/** A course line of a bundle or favourites order on the refund screen. */
export const RefundLineOption = z.object({
  item_id: z.number().int(),
  course_id: z.number().int(),
  title: z.string(),
  /** Its share of what was paid (the shares of all lines add up to the amount paid). */
  share_fen: Fen,
  watched_percent: z.number().int(),
  state: z
    .enum(['available', 'watched', 'requested', 'refunded', 'not_held'])
    .describe(
      'available: can be refunded; watched: past the rule; requested/refunded: in a refund; not_held: not granted by this order any more',
    ),
  refundable: z.boolean(),
})

export const RefundRequestBody = z.object({
  order_no: z.string().trim().min(1).max(40),
  reason: z.string().trim().min(2).max(200),
  /** Per-course refund of a bundle or favourites order: the items (lines) to give back; absent: the whole order. */
  order_item_ids: z.array(z.number().int().positive()).min(1).max(100).optional(),
})
export const RefundResponse = envelope(RefundView)

export const RefundCheckQuery = z.object({ order_no: z.string().trim().min(1).max(40) })
export const RefundCheck = z.object({
  order_no: z.string(),
  refundable: z.boolean(),
  /** 200 when refundable, else the code POST /api/refunds would answer (490–493). */
  code: z.number().int(),
  msg: z.string(),
  amount_fen: Fen,
  /** Points the order was paid with: a full refund gives them back (an order paid with points alone refunds 0 fen). */
  points_used: z.number().int(),
  window_days: z.number().int(),
  /** Until when a request is accepted; null for an order that is not paid. */
  deadline: z.string().nullable(),
  max_watched_percent: z.number().int(),
  /** Course orders: how much of the course the member watched. */
  watched_percent: z.number().int().nullable(),
  /** Bundle and favourites orders: their courses, each refundable on its own; null for other orders. */
  lines: z.array(RefundLineOption).nullable(),
  refunds: z.array(RefundView),
})
export const RefundCheckResponse = envelope(RefundCheck)

export type StaffRefund = z.infer<typeof StaffRefund>
export const StaffRefund = RefundView.extend({
  order_title: z.string(),
  order_amount_fen: Fen,
  member_id: z.number().int(),
  phone: z.string().nullable(),
  last_error: z.string().nullable(),
  /** A failed refund an operator may send again (POST /api/admin/refunds/{refund_no}/retry). */
  retryable: z.boolean(),
  retries: z.number().int(),
  retried_by: z.number().int().nullable(),
  retried_at: z.string().nullable(),
})
/** GET /api/admin/refunds: by state; q is a refund number, a member's phone or a member id. */
export const StaffRefundListQuery = adminListQuery(['created_at', 'amount_fen'], '-created_at').extend({
  state: z.enum(refundStates).optional(),
  q: SearchText.optional(),
})
export type StaffRefundListQuery = z.output<typeof StaffRefundListQuery>
export const RefundNoParams = z.object({ refund_no: z.string().trim().min(1).max(40) })
export { ApproveBody, RejectBody } from '#shared/api/refunds.ts'
