import type { FastifyInstance } from 'fastify'
import { requireRole } from '#server/http/auth.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { CommerceServices } from '#server/services-commerce.ts'
import {
  ApproveBody,
  RefundCheckQuery,
  RefundCheckResponse,
  RefundNoParams,
  RefundRequestBody,
  RefundResponse,
  RejectBody,
  StaffRefundListQuery,
  StaffRefundListResponse,
} from './refunds.schema.ts'

interface RefundRoutesOptions {
  refunds: Pick<CommerceServices['refunds'], 'check' | 'request'>
}

/** A member's refund request and its state (screen /refund/{id}). */
export async function refundRoutes(app: FastifyInstance, opts: RefundRoutesOptions) {
  const { refunds } = opts
  const tags = ['refunds']
  const r = apiRoutes(app, { tags })

  r.get(
    '/refunds/check',
    {
      config: { auth: 'required' },
      summary: 'Can this order of mine be refunded now, why not, and its refunds so far',
      querystring: RefundCheckQuery,
      response: RefundCheckResponse,
    },
    async (request) => refunds.check(requireRole(request).memberId, request.query.order_no),
  )

  r.post(
    '/refunds',
    {
      config: { auth: 'required', idempotent: true },
      summary: 'Ask for a refund of a paid order (an operator decides)',
      body: RefundRequestBody,
      response: RefundResponse,
    },
    async (request) => refunds.request(requireRole(request).memberId, request.body.order_no, request.body.reason),
  )
}

interface AdminRefundRoutesOptions {
  refunds: Pick<CommerceServices['refunds'], 'listForStaff' | 'approve' | 'retry' | 'reject'>
}

/**
 * Operators decide refund requests and send failed refunds again (under /api/admin/, admins only); every action
 * records who and when.
 */
export async function adminRefundRoutes(app: FastifyInstance, opts: AdminRefundRoutesOptions) {
  const { refunds } = opts
  const tags = ['admin']
  const r = apiRoutes(app, { tags })

  const config = { auth: 'admin' as const }
  const moves = { auth: 'admin' as const, idempotent: true }

  r.get(
    '/admin/refunds',
    {
      config,
      summary: 'Refunds, newest first, by state',
      querystring: StaffRefundListQuery,
      response: StaffRefundListResponse,
    },
    async (request) => refunds.listForStaff(request.query),
  )

  r.post(
    '/admin/refunds/:refund_no/approve',
    {
      config: moves,
      summary: 'Approve a refund request (all or part) and refund through the provider',
      params: RefundNoParams,
      body: ApproveBody,
      response: RefundResponse,
    },
    async (request) =>
      refunds.approve(requireRole(request, 'admin').memberId, request.params.refund_no, {
        amountFen: request.body.amount_fen,
        note: request.body.note,
      }),
  )

  r.post(
    '/admin/refunds/:refund_no/retry',
    {
      config: moves,
      summary: 'Send a failed refund to the provider again, with the same refund number (489 unless it failed)',
      params: RefundNoParams,
      response: RefundResponse,
    },
    async (request) => refunds.retry(requireRole(request, 'admin').memberId, request.params.refund_no),
  )

  r.post(
    '/admin/refunds/:refund_no/reject',
    {
      config: moves,
      summary: 'Reject a refund request with a note the member sees',
      params: RefundNoParams,
      body: RejectBody,
      response: RefundResponse,
    },
    async (request) =>
      refunds.reject(requireRole(request, 'admin').memberId, request.params.refund_no, request.body.note),
  )
}
