import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { requireRole } from '#server/http/auth.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { ProviderPayMethod } from '#server/integrations/payments/payments.ts'
import type { CommerceServices } from '#server/services-commerce.ts'
import type { StaffOrderService } from './staff-orders.service.ts'
import {
  CheckoutResponse,
  CoursePreviewQuery,
  OrderDetailResponse,
  OrderListQuery,
  OrderListResponse,
  OrderNoParams,
  OrderStatusQuery,
  OrderStatusResponse,
  PayAmountBody,
  PayBundleBody,
  PayCourseBody,
  PayFavouritesBody,
  BundlePreviewQuery,
  FavouritesPreviewQuery,
  PayVipBody,
  PreviewResponse,
  VipPreviewQuery,
  StaffOrderExportQuery,
  StaffOrderListResponse,
  StaffOrderQuery,
} from './orders.schema.ts'

const tags = ['orders']
const security = [{ token: [] }]
const idempotencyNote =
  ' Send an `Idempotency-Key` header (8–128 of A–Z a–z 0–9 . _ : -) to get the first answer again on a retry.'

function checkoutContext(
  request: FastifyRequest,
  choice: { pay_method: ProviderPayMethod | 'points'; coupon_id?: number | null; points?: number },
) {
  return {
    memberId: requireRole(request).memberId,
    payMethod: choice.pay_method,
    couponId: choice.coupon_id,
    points: choice.points,
    clientIp: request.ip,
    sp: request.attribution?.sp ?? null,
  }
}

interface OrdersRoutesOptions {
  /** Checkout (the checkout use cases) and the member's own orders. */
  orders: CommerceServices['orders']
}

/** Checkout (spec 7: POST /pay/course, /pay/vip, /pay/amount, /foryou/pay, /fav/pay; GET /pay/course) and the member's orders. */
export async function ordersRoutes(app: FastifyInstance, opts: OrdersRoutesOptions) {
  const { orders } = opts
  const r = apiRoutes(app, { tags })

  r.post(
    '/pay/course',
    {
      config: { auth: 'required', idempotent: true },
      summary: `Buy a course: creates (or reuses the pending) order and returns what the client needs to pay; pay_method points spends the course's points price at once.${idempotencyNote}`,
      body: PayCourseBody,
      response: CheckoutResponse,
    },
    async (request) => orders.payCourse(checkoutContext(request, request.body), request.body.course_id),
  )

  r.post(
    '/pay/vip',
    {
      config: { auth: 'required', idempotent: true },
      summary: `Buy a VIP plan.${idempotencyNote}`,
      body: PayVipBody,
      response: CheckoutResponse,
    },
    async (request) => orders.payVip(checkoutContext(request, request.body), request.body.plan_id),
  )

  r.post(
    '/pay/amount',
    {
      config: { auth: 'required', idempotent: true },
      summary: `Pay a given amount with a title (a link staff send).${idempotencyNote}`,
      body: PayAmountBody,
      response: CheckoutResponse,
    },
    async (request) =>
      orders.payAmount(
        checkoutContext(request, { pay_method: request.body.pay_method }),
        request.body.amount_fen,
        request.body.title,
      ),
  )

  r.post(
    '/foryou/pay',
    {
      config: { auth: 'required', idempotent: true },
      summary: `Buy a course bundle at my price (the share of its courses I do not own yet).${idempotencyNote}`,
      body: PayBundleBody,
      response: CheckoutResponse,
    },
    async (request) => orders.payBundle(checkoutContext(request, request.body), request.body.id),
  )

  r.post(
    '/fav/pay',
    {
      config: { auth: 'required', idempotent: true },
      summary: `Buy favourite courses together in one order.${idempotencyNote}`,
      body: PayFavouritesBody,
      response: CheckoutResponse,
    },
    async (request) => orders.payFavourites(checkoutContext(request, request.body), request.body.course_ids),
  )

  r.get(
    '/foryou/pay/preview',
    {
      config: { auth: 'required' },
      summary: 'Price of a bundle for me now: coupons, points, what is left to pay, and the courses it would hold',
      querystring: BundlePreviewQuery,
      response: PreviewResponse,
    },
    async (request) =>
      orders.preview(requireRole(request).memberId, {
        bundleId: request.query.id,
        couponId: request.query.coupon_id,
        points: request.query.points,
      }),
  )

  r.get(
    '/fav/pay/preview',
    {
      config: { auth: 'required' },
      summary: 'Price of favourite courses bought together: coupons, points, what is left to pay',
      querystring: FavouritesPreviewQuery,
      response: PreviewResponse,
    },
    async (request) =>
      orders.preview(requireRole(request).memberId, {
        courseIds: request.query.course_ids ?? null,
        couponId: request.query.coupon_id,
        points: request.query.points,
      }),
  )

  r.get(
    '/pay/course/preview',
    {
      config: { auth: 'required' },
      summary: 'Price of a course for me now: coupons that apply (best first), points, what is left to pay',
      querystring: CoursePreviewQuery,
      response: PreviewResponse,
    },
    async (request) =>
      orders.preview(requireRole(request).memberId, {
        courseId: request.query.course_id,
        couponId: request.query.coupon_id,
        points: request.query.points,
      }),
  )

  r.get(
    '/pay/vip/preview',
    {
      config: { auth: 'required' },
      summary: 'Price of a VIP plan for me now, with points',
      querystring: VipPreviewQuery,
      response: PreviewResponse,
    },
    async (request) =>
      orders.preview(requireRole(request).memberId, {
        planId: request.query.plan_id,
        couponId: 0,
        points: request.query.points,
      }),
  )

  r.get(
    '/pay/course',
    {
      config: { auth: 'required' },
      summary: 'The state of one of my orders (the /payRedirect poll)',
      querystring: OrderStatusQuery,
      response: OrderStatusResponse,
    },
    async (request) => orders.status(requireRole(request).memberId, request.query.order_no),
  )

  r.get(
    '/orders',
    {
      config: { auth: 'required' },
      summary: 'My orders, newest first (cursor paging)',
      querystring: OrderListQuery,
      response: OrderListResponse,
    },
    async (request) => orders.list(requireRole(request).memberId, request.query),
  )

  r.get(
    '/orders/:order_no',
    {
      config: { auth: 'required' },
      summary: 'One of my orders with its history',
      params: OrderNoParams,
      response: OrderDetailResponse,
    },
    async (request) => orders.detail(requireRole(request).memberId, request.params.order_no),
  )
}

interface AdminOrderRoutesOptions {
  staffOrders: StaffOrderService
}

/** Orders for operators (under /api/admin/, admins only): search and CSV export. */
export async function adminOrderRoutes(app: FastifyInstance, opts: AdminOrderRoutesOptions) {
  const { staffOrders } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const config = { auth: 'admin' as const }
  const api = apiRoutes(app, { tags: ['admin'], config })

  api.get(
    '/admin/orders',
    {
      summary: 'Orders by state, kind, sp, date (Beijing) and order number / phone / member id',
      querystring: StaffOrderQuery,
      response: StaffOrderListResponse,
    },
    async (request) => staffOrders.search(request.query),
  )

  r.get(
    '/admin/orders/export',
    {
      config,
      schema: {
        tags: ['admin'],
        security,
        summary: 'The same search as a CSV file (at most 10,000 rows)',
        querystring: StaffOrderExportQuery,
        response: { 200: z.string().describe('text/csv') },
      },
    },
    async (request, reply) => {
      const csv = await staffOrders.exportCsv(request.query)
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv)
    },
  )
}
