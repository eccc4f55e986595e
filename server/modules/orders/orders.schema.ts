import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { cursorPage, envelope } from '#server/http/envelope.ts'
import { adminListQuery, BeijingDay, SearchText } from '#shared/api/admin-list.ts'
import { orderKinds, orderStates, payMethods } from '#server/db/schema/orders.ts'
import { JsonId as id, PathId } from '#shared/api/params.ts'

/** The methods a member can choose at checkout (points and free come with coupons and points). */
export const ProviderPayMethod = z
  .enum(['wechat_jsapi', 'wechat_h5', 'wechat_native', 'alipay_wap'])
  .describe('wechat_jsapi inside WeChat, wechat_h5 in other phone browsers, wechat_native (QR) on desktop, alipay_wap')

const couponChoice = id
  .nullable()
  .optional()
  .describe('A coupon of mine (GET /api/coupons); left out: the best one that applies; null: none')
const pointsChoice = z
  .number()
  .int()
  .min(0)
  .max(100_000_000)
  .optional()
  .describe('Points to put towards the price (GET …/preview says how many may be used)')

export const PayCourseBody = z.object({
  course_id: id,
  pay_method: z.union([
    ProviderPayMethod,
    z.literal('points').describe('A course with a points price, paid with points at once (/course/creditPay)'),
  ]),
  coupon_id: couponChoice,
  points: pointsChoice,
})
export const PayBundleBody = z.object({
  id: id.describe('The bundle (/foryou/{id})'),
  pay_method: ProviderPayMethod,
  coupon_id: couponChoice,
  points: pointsChoice,
})
export const PayFavouritesBody = z.object({
  course_ids: z
    .array(id)
    .min(1)
    .max(50)
    .optional()
    .describe('The favourite courses to buy together; left out: every paid favourite I do not own yet (GET /fav/calc)'),
  pay_method: ProviderPayMethod,
  coupon_id: couponChoice,
  points: pointsChoice,
})
export const PayVipBody = z.object({ plan_id: id, pay_method: ProviderPayMethod, points: pointsChoice })
export const PayAmountBody = z.object({
  amount_fen: z.number().int().min(1).max(5_000_000).describe('1 fen to 50,000 yuan'),
  title: z.string().trim().min(1).max(60),
  pay_method: ProviderPayMethod,
})

export const JsapiParams = z.object({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.literal('RSA'),
  paySign: z.string(),
})

/** What every answer about an order shows: its number, kind, state, title and money. */
const OrderBasics = z.object({
  order_no: z.string(),
  kind: z.enum(orderKinds),
  state: z.enum(orderStates),
  title: z.string(),
  amount_fen: Fen,
  original_fen: Fen,
  discount_fen: Fen,
  points_used: z.number().int(),
})

export const CheckoutData = OrderBasics.extend({
  /** points or free: coupon and points covered everything and the order is already paid (state paid). */
  pay_method: z.enum(payMethods),
  expires_at: z.string(),
  /** True when the member's pending order for the same thing was reused (a second tap). */
  reused: z.boolean(),
  /** wechat_jsapi: pass to WeixinJSBridge.invoke('getBrandWCPayRequest', jsapi, cb). */
  jsapi: JsapiParams.nullable(),
  /** wechat_h5: open this URL; WeChat returns to /payRedirect?order_no=… */
  h5_url: z.string().nullable(),
  /** wechat_native: show as a QR code. */
  code_url: z.string().nullable(),
  /** alipay_wap: navigate here; Alipay returns to /payRedirect?order_no=… */
  redirect_url: z.string().nullable(),
})
export const CheckoutResponse = envelope(CheckoutData)

const OrderItem = z.object({
  course_id: z.number().int().nullable(),
  vip_plan_id: z.number().int().nullable(),
  title: z.string(),
  price_fen: Fen,
})

export const OrderView = OrderBasics.extend({
  refunded_fen: Fen,
  pay_method: z.enum(payMethods),
  created_at: z.string(),
  expires_at: z.string(),
  paid_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  items: z.array(OrderItem),
  /** The page that sells this again (for "重新支付" and "再次购买"). */
  buy_again_path: z.string(),
  refund: z
    .object({
      refund_no: z.string(),
      state: z.enum(['requested', 'rejected', 'processing', 'succeeded', 'failed']),
      amount_fen: Fen,
      reason: z.string().describe('What the member gave as the reason'),
      note: z.string().nullable().describe('Why it was rejected or failed, for the member'),
    })
    .nullable()
    .optional()
    .describe('The newest refund of the order, if any (lists and detail)'),
})

export const OrderEventView = z.object({
  from: z.enum(orderStates).nullable(),
  to: z.enum(orderStates),
  reason: z.string(),
  at: z.string(),
})

export const OrderStatusQuery = z.object({ order_no: z.string().trim().min(1).max(40) })
export const OrderStatusResponse = envelope(OrderView)

export const OrderListQuery = z.object({
  kind: z
    .enum(['course', 'vip', 'amount', 'bundle', 'favourites', 'exchange'])
    .optional()
    .describe(
      'course: every order that gives courses (single courses, bundles, favourites together); exchange: courses exchanged for points (/order4); the others: that kind only',
    ),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
})
export const OrderListResponse = envelope(cursorPage(OrderView))

export const OrderNoParams = z.object({ order_no: z.string().trim().min(1).max(40) })
export const OrderDetailResponse = envelope(OrderView.extend({ events: z.array(OrderEventView) }))

export const StaffOrderQuery = adminListQuery(['created_at', 'amount_fen', 'paid_at'], '-created_at').extend({
  state: z.enum(orderStates).optional(),
  kind: z.enum(orderKinds).optional(),
  sp: z.string().trim().max(64).optional(),
  /** Beijing dates, inclusive. */
  from: BeijingDay.optional(),
  to: BeijingDay.optional(),
  /** An order number, a phone or a member id. */
  q: SearchText.optional(),
  /** Orders that bought this course. */
  course_id: PathId.optional(),
})
export type StaffOrderQuery = z.output<typeof StaffOrderQuery>

export const StaffOrder = OrderView.extend({
  member_id: z.number().int(),
  phone: z.string().nullable(),
  sp: z.string().nullable(),
  provider: z.string().nullable(),
  provider_txn_id: z.string().nullable(),
})
export type StaffOrder = z.infer<typeof StaffOrder>
/** One order as staff read it: with its whole event log (who or what moved it, why, with what data). */
export const StaffOrderDetail = StaffOrder.extend({
  events: z.array(
    OrderEventView.extend({
      actor: z.string().describe('member:…, admin:…, provider:wechat, system'),
      data: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
})
export type StaffOrderDetail = z.infer<typeof StaffOrderDetail>
export const StaffOrderDetailResponse = envelope(StaffOrderDetail)

export const CoursePreviewQuery = z.object({
  course_id: PathId,
  /** A coupon of mine; left out: the best one; 0: none. */
  coupon_id: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
  points: z.coerce.number().int().min(0).max(100_000_000).optional(),
})
export const BundlePreviewQuery = CoursePreviewQuery.omit({ course_id: true }).extend({
  id: PathId,
})
export const FavouritesPreviewQuery = CoursePreviewQuery.omit({ course_id: true }).extend({
  course_ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,49}$/)
    .transform((v) => v.split(',').map(Number))
    .optional()
    .describe('Comma-separated course ids; left out: every paid favourite I do not own yet'),
})
export const VipPreviewQuery = z.object({
  plan_id: PathId,
  points: z.coerce.number().int().min(0).max(100_000_000).optional(),
})

export const PreviewData = z.object({
  title: z.string(),
  original_fen: Fen,
  /** Coupons of mine that apply, best first. */
  coupons: z.array(
    z.object({ coupon_id: z.number().int(), name: z.string(), discount_fen: Fen, expires_at: z.string() }),
  ),
  /** The coupon the checkout uses (the best by default). */
  coupon_id: z.number().int().nullable(),
  discount_fen: Fen,
  points_balance: z.number().int(),
  /** The most points this order may use (balance and the configured share of the price). */
  points_max: z.number().int(),
  fen_per_point: z.number().int(),
  points: z.number().int(),
  points_fen: Fen,
  /** What is left to pay through a provider; 0 means the order is paid at once. */
  amount_fen: Fen,
  /** What the order would hold, each at the price it sells for in it (a bundle's price is split over its courses). */
  items: z.array(OrderItem),
})
export const PreviewResponse = envelope(PreviewData)
