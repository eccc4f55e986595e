import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, apiPlugin } from '#server/http/route.ts'
import type { checkOrderStatus } from '#server/use-cases/check-order-status.ts'
import type { checkoutAmount } from '#server/use-cases/checkout-amount.ts'
import type { checkoutBundle } from '#server/use-cases/checkout-bundle.ts'
import type { checkoutCourse } from '#server/use-cases/checkout-course.ts'
import type { checkoutFavourites } from '#server/use-cases/checkout-favourites.ts'
import type { checkoutVip } from '#server/use-cases/checkout-vip.ts'
import type { Bound } from '#server/use-cases/commerce-deps.ts'
import type { CheckoutContext } from '#server/use-cases/place-order.ts'
import type { PreviewRequest, previewCheckout } from '#server/use-cases/preview-checkout.ts'
import type { resumePayment } from '#server/use-cases/resume-payment.ts'
import type { createOrderService } from './orders.service.ts'
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
  StaffOrderDetailResponse,
  StaffOrder,
  StaffOrderQuery,
} from './orders.schema.ts'

const idempotencyNote =
  ' Send an `Idempotency-Key` header (8–128 of A–Z a–z 0–9 . _ : -) to get the first answer again on a retry.'

type OrderService = ReturnType<typeof createOrderService>

interface OrdersRoutesOptions {
  /** Checkout (the checkout use cases, bound in the composition root) and the member's own orders. */
  orders: {
    payCourse: Bound<typeof checkoutCourse>
    payVip: Bound<typeof checkoutVip>
    payAmount: Bound<typeof checkoutAmount>
    payBundle: Bound<typeof checkoutBundle>
    payFavourites: Bound<typeof checkoutFavourites>
    preview: Bound<typeof previewCheckout>
    status: Bound<typeof checkOrderStatus>
    resume: Bound<typeof resumePayment>
    list: OrderService['list']
    detail: OrderService['detail']
  }
}

/** What every checkout body says about paying: the method, and the coupon and points where the purchase takes them. */
type CheckoutBody = z.ZodType<{ pay_method: CheckoutContext['payMethod']; coupon_id?: number | null; points?: number }>

function checkoutContext(request: FastifyRequest, memberId: number, choice: z.output<CheckoutBody>): CheckoutContext {
  return {
    memberId,
    payMethod: choice.pay_method,
    couponId: choice.coupon_id,
    points: choice.points,
    clientIp: request.ip,
    sp: request.attribution?.sp ?? null,
    origin: request.visitorOrigin,
  }
}

/** Checkout (spec 7: POST /pay/course, /pay/vip, /pay/amount, /foryou/pay, /fav/pay; GET /pay/course) and the member's orders. */
export const ordersRoutes = apiPlugin({ tags: ['orders'], auth: 'required' }, (r, { orders }: OrdersRoutesOptions) => {
  /** A purchase: creates (or reuses the pending) order for the member and answers what the client needs to pay. */
  function checkout<B extends CheckoutBody>(
    url: string,
    summary: string,
    body: B,
    pay: (ctx: CheckoutContext, body: z.output<B>) => ReturnType<OrdersRoutesOptions['orders']['payCourse']>,
  ) {
    r.post(
      url,
      {
        idempotent: true,
        summary: `${summary}${idempotencyNote}`,
        body,
        response: CheckoutResponse,
      },
      async (request, memberId) => {
        const choice = request.body as z.output<B>
        return pay(checkoutContext(request, memberId, choice), choice)
      },
    )
  }

  /** The price of a purchase for the member now: the coupons that apply, points, what is left to pay. */
  function preview<Q extends z.ZodType<{ coupon_id?: number; points?: number }>>(
    url: string,
    summary: string,
    querystring: Q,
    what: (query: z.output<Q>) => PreviewRequest,
  ) {
    r.get(url, { summary, querystring, response: PreviewResponse }, async (request, memberId) => {
      const query = request.query as z.output<Q>
      return orders.preview(memberId, { couponId: query.coupon_id, points: query.points, ...what(query) })
    })
  }

  checkout(
    '/pay/course',
    "Buy a course: creates (or reuses the pending) order and returns what the client needs to pay; pay_method points spends the course's points price at once.",
    PayCourseBody,
    (ctx, body) => orders.payCourse(ctx, body.course_id),
  )
  checkout('/pay/vip', 'Buy a VIP plan.', PayVipBody, (ctx, body) => orders.payVip(ctx, body.plan_id))
  checkout('/pay/amount', 'Pay a given amount with a title (a link staff send).', PayAmountBody, (ctx, body) =>
    orders.payAmount(ctx, body.amount_fen, body.title),
  )
  checkout(
    '/foryou/pay',
    'Buy a course bundle at my price (the share of its courses I do not own yet).',
    PayBundleBody,
    (ctx, body) => orders.payBundle(ctx, body.id),
  )
  checkout('/fav/pay', 'Buy favourite courses together in one order.', PayFavouritesBody, (ctx, body) =>
    orders.payFavourites(ctx, body.course_ids),
  )

  preview(
    '/foryou/pay/preview',
    'Price of a bundle for me now: coupons, points, what is left to pay, and the courses it would hold',
    BundlePreviewQuery,
    (query) => ({ bundleId: query.id }),
  )
  preview(
    '/fav/pay/preview',
    'Price of favourite courses bought together: coupons, points, what is left to pay',
    FavouritesPreviewQuery,
    (query) => ({ courseIds: query.course_ids ?? null }),
  )
  preview(
    '/pay/course/preview',
    'Price of a course for me now: coupons that apply (best first), points, what is left to pay',
    CoursePreviewQuery,
    (query) => ({ courseId: query.course_id }),
  )
  preview('/pay/vip/preview', 'Price of a VIP plan for me now, with points', VipPreviewQuery, (query) => ({
    planId: query.plan_id,
    couponId: 0,
  }))

  r.get(
    '/pay/course',
    {
      summary: 'The state of one of my orders (the /payRedirect poll)',
      querystring: OrderStatusQuery,
      response: OrderStatusResponse,
    },
    async (request, memberId) => orders.status(memberId, request.query.order_no),
  )

  r.post(
    '/orders/pay',
    {
      idempotent: true,
      summary: `Pay one of my pending orders again (继续支付), whatever it bought, with its own method: answers what the client needs to pay, as a checkout does${idempotencyNote}`,
      body: OrderStatusQuery,
      response: CheckoutResponse,
    },
    async (request, memberId) => orders.resume(memberId, request.body.order_no, request.ip, request.visitorOrigin),
  )

  r.get(
    '/orders',
    { summary: 'My orders, newest first (cursor paging)', querystring: OrderListQuery, response: OrderListResponse },
    async (request, memberId) => orders.list(memberId, request.query),
  )

  r.get(
    '/orders/:order_no',
    { summary: 'One of my orders with its history', params: OrderNoParams, response: OrderDetailResponse },
    async (request, memberId) => orders.detail(memberId, request.params.order_no),
  )
})

/** Orders for operators (under /api/admin/): search, detail and CSV export. */
export const adminOrderRoutes = adminPlugin('orders.read', (r, { staffOrders }: { staffOrders: StaffOrderService }) => {
  listRoute(r, '/admin/orders', {
    summary: 'Orders by state, kind, sp, date (Beijing) and order number / phone / member id',
    querystring: StaffOrderQuery,
    row: StaffOrder,
    list: staffOrders.search,
    exportPermission: 'orders.export',
  })

  r.get(
    '/admin/orders/:order_no',
    {
      summary: 'One order with its lines, member and whole event log (who moved it, why, with what data)',
      params: OrderNoParams,
      response: StaffOrderDetailResponse,
    },
    async (request) => staffOrders.detail(request.params.order_no),
  )
})
