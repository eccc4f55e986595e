import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { ok } from '#server/http/envelope.ts'
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

const security = [{ token: [] }]

interface RefundRoutesOptions {
  refunds: Pick<CommerceServices['refunds'], 'check' | 'request'>
}

/** A member's refund request and its state (screen /refund/{id}). */
export async function refundRoutes(app: FastifyInstance, opts: RefundRoutesOptions) {
  const { refunds } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const tags = ['refunds']

  r.get(
    '/refunds/check',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        security,
        summary: 'Can this order of mine be refunded now, why not, and its refunds so far',
        querystring: RefundCheckQuery,
        response: { 200: RefundCheckResponse },
      },
    },
    async (request) => ok(await refunds.check(requireRole(request).memberId, request.query.order_no)),
  )

  r.post(
    '/refunds',
    {
      config: { auth: 'required', idempotent: true },
      schema: {
        tags,
        security,
        summary: 'Ask for a refund of a paid order (an operator decides)',
        body: RefundRequestBody,
        response: { 200: RefundResponse },
      },
    },
    async (request) =>
      ok(await refunds.request(requireRole(request).memberId, request.body.order_no, request.body.reason)),
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
  const r = app.withTypeProvider<ZodTypeProvider>()
  const tags = ['admin']
  const config = { auth: 'admin' as const }
  const moves = { auth: 'admin' as const, idempotent: true }

  r.get(
    '/admin/refunds',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Refunds, newest first, by state',
        querystring: StaffRefundListQuery,
        response: { 200: StaffRefundListResponse },
      },
    },
    async (request) => ok(await refunds.listForStaff(request.query)),
  )

  r.post(
    '/admin/refunds/:refund_no/approve',
    {
      config: moves,
      schema: {
        tags,
        security,
        summary: 'Approve a refund request (all or part) and refund through the provider',
        params: RefundNoParams,
        body: ApproveBody,
        response: { 200: RefundResponse },
      },
    },
    async (request) =>
      ok(
        await refunds.approve(requireRole(request, 'admin').memberId, request.params.refund_no, {
          amountFen: request.body.amount_fen,
          note: request.body.note,
        }),
      ),
  )

  r.post(
    '/admin/refunds/:refund_no/retry',
    {
      config: moves,
      schema: {
        tags,
        security,
        summary: 'Send a failed refund to the provider again, with the same refund number (489 unless it failed)',
        params: RefundNoParams,
        response: { 200: RefundResponse },
      },
    },
    async (request) => ok(await refunds.retry(requireRole(request, 'admin').memberId, request.params.refund_no)),
  )

  r.post(
    '/admin/refunds/:refund_no/reject',
    {
      config: moves,
      schema: {
        tags,
        security,
        summary: 'Reject a refund request with a note the member sees',
        params: RefundNoParams,
        body: RejectBody,
        response: { 200: RefundResponse },
      },
    },
    async (request) =>
      ok(await refunds.reject(requireRole(request, 'admin').memberId, request.params.refund_no, request.body.note)),
  )
}
