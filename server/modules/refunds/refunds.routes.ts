import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, apiPlugin } from '#server/http/route.ts'
import type { approveRefund } from '#server/use-cases/approve-refund.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { rejectRefund } from '#server/use-cases/reject-refund.ts'
import type { requestRefund } from '#server/use-cases/request-refund.ts'
import type { retryRefund } from '#server/use-cases/retry-refund.ts'
import type { createRefundService } from './refunds.service.ts'
import type { StaffRefunds } from './staff-refunds.ts'
import {
  ApproveBody,
  RefundCheckQuery,
  RefundCheckResponse,
  RefundNoParams,
  RefundRequestBody,
  RefundResponse,
  RejectBody,
  StaffRefund,
  StaffRefundListQuery,
} from './refunds.schema.ts'

type RefundService = ReturnType<typeof createRefundService>

interface RefundRoutesOptions {
  /** The refund check (this module's service) and the request-refund use case. */
  refunds: { check: RefundService['check']; request: Bound<typeof requestRefund> }
}

/** A member's refund request and its state (screen /refund/{id}). */
export const refundRoutes = apiPlugin(
  { tags: ['refunds'], auth: 'required' },
  (r, { refunds }: RefundRoutesOptions) => {
    r.get(
      '/refunds/check',
      {
        summary: 'Can this order of mine be refunded now, why not, and its refunds so far',
        querystring: RefundCheckQuery,
        response: RefundCheckResponse,
      },
      async (request, memberId) => refunds.check(memberId, request.query.order_no),
    )

    r.post(
      '/refunds',
      {
        idempotent: true,
        summary: 'Ask for a refund of a paid order (an operator decides)',
        body: RefundRequestBody,
        response: RefundResponse,
      },
      async ({ body }, memberId) => refunds.request(memberId, body.order_no, body.reason, body.order_item_ids),
    )
  },
)

interface AdminRefundRoutesOptions {
  /** The staff list (this module's service) and the operators' decisions (use cases). */
  refunds: {
    staff: StaffRefunds
    approve: Bound<typeof approveRefund>
    retry: Bound<typeof retryRefund>
    reject: Bound<typeof rejectRefund>
  }
}

/**
 * Operators decide refund requests and send failed refunds again (under /api/admin/, admins only); every action
 * records who and when.
 */
export const adminRefundRoutes = adminPlugin(
  { read: 'refunds.read', write: 'refunds.approve' },
  (r, { refunds }: AdminRefundRoutesOptions) => {
    listRoute(r, '/admin/refunds', {
      summary: 'Refunds by state and refund number / phone / member id (paged, sorted)',
      querystring: StaffRefundListQuery,
      row: StaffRefund,
      list: refunds.staff.list,
    })

    r.post(
      '/admin/refunds/:refund_no/approve',
      {
        idempotent: true,
        stepUp: true,
        summary: 'Approve a refund request (all or part) and refund through the provider; needs a step-up proof',
        params: RefundNoParams,
        body: ApproveBody,
        response: RefundResponse,
      },
      async ({ params, body }, staffId) =>
        refunds.approve(staffId, params.refund_no, { amountFen: body.amount_fen, note: body.note }),
    )

    r.post(
      '/admin/refunds/:refund_no/retry',
      {
        idempotent: true,
        summary: 'Send a failed refund to the provider again, with the same refund number (489 unless it failed)',
        params: RefundNoParams,
        response: RefundResponse,
      },
      async ({ params }, staffId) => refunds.retry(staffId, params.refund_no),
    )

    r.post(
      '/admin/refunds/:refund_no/reject',
      {
        idempotent: true,
        summary: 'Reject a refund request with a note the member sees',
        params: RefundNoParams,
        body: RejectBody,
        response: RefundResponse,
      },
      async ({ params, body }, staffId) => refunds.reject(staffId, params.refund_no, body.note),
    )
  },
)
