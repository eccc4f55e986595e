import crypto from 'node:crypto'
import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db, DbOrTx } from '#server/db/database.ts'
import type { OrderKind, PayMethod } from '#server/db/schema/orders.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  ProviderError,
  providerOf,
  type PaymentProviders,
  type PrepayResult,
  type ProviderPayMethod,
} from '#server/integrations/payments/payments.ts'
import { bundlePrice } from '#server/modules/bundles/bundle-price.ts'
import { findBundle, findBundleCourses } from '#server/modules/bundles/bundles.repository.ts'
import { paidCourses } from '#server/modules/bundles/bundles.service.ts'
import { coursesCategories, reserveCoupon, usableCoupons } from '#server/modules/coupons/coupons.repository.ts'
import { couponDiscountOn, pointsFor, type PricedLine } from '#server/modules/coupons/pricing.ts'
import { listBuyableFavourites } from '#server/modules/favourites/favourites.service.ts'
import type { PaymentService } from '#server/modules/payments/payments.service.ts'
import { debitPoints, lockBalance, pointBalance } from '#server/modules/points/points.repository.ts'
import { grantOrder, releaseBenefits } from './fulfilment.ts'
import {
  findCourseForMember,
  findCourses,
  findEvents,
  findItems,
  findMemberOpenid,
  findOrderByNo,
  findPendingOrder,
  findVipPlan,
  insertOrderEvent,
  insertOrderItems,
  insertPendingOrder,
  listMemberOrders,
  ownedCourseIds,
  searchOrders,
  transitionOrder,
  type StaffOrderFilter,
  type OrderItemRow,
  type OrderRow,
} from './orders.repository.ts'
import type { CheckoutData, OrderView, StaffOrderExportQuery, StaffOrderQuery } from './orders.schema.ts'

export interface OrderDeps {
  db: Db
  config: Config
  providers: PaymentProviders
  payments: PaymentService
  now: () => Date
}

export interface CheckoutContext {
  memberId: number
  /** points: a course priced in points, paid with them at once (/course/creditPay/{id}). */
  payMethod: ProviderPayMethod | 'points'
  clientIp: string
  sp: string | null
  /** A coupon of the member's (member coupon id); undefined: the best one that applies; null: none. */
  couponId?: number | null
  /** Exactly this many points towards the price (at most the balance and the configured share). */
  points?: number
}

/** What is being bought, decided before any order exists. */
interface Purchase {
  kind: OrderKind
  target: string
  title: string
  priceFen: number
  items: Omit<OrderItemRow, 'id' | 'orderId'>[]
  /** Where Alipay's "back" button goes. */
  quitPath: string
  /** The courses coupons are matched against, at the price each sells for here; null: coupons do not apply. */
  couponLines: PricedLine[] | null
  pointsAllowed: boolean
  /** A course bought for exactly this many points instead of money: no coupon, nothing left to pay. */
  pointsPrice?: number
}

/** At most this many courses in one favourites checkout. */
export const FAV_CHECKOUT_MAX = 50

/** A pending order is reused only while it has at least this long to live; otherwise a fresh one is made. */
const REUSE_MARGIN_MS = 2 * 60_000
/** The /payRedirect poll asks the provider at most this often per order. */
const POLL_QUERY_EVERY_MS = 3_000

/** ZX + Beijing date + 10 random digits: readable, sortable by day, 20 characters (WeChat allows 32). */
export function newOrderNo(at: Date) {
  const day = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '')
  return `ZX${day}${crypto.randomInt(0, 1e10).toString().padStart(10, '0')}`
}

/** The page that sells what an order bought: its checkout, the bundle, the favourites, the amount link. */
export function buyAgainPath(
  order: Pick<OrderRow, 'kind' | 'target' | 'title' | 'amountFen' | 'payMethod' | 'originalFen'>,
  items: Pick<OrderItemRow, 'courseId' | 'vipPlanId'>[],
) {
  const [, ref] = order.target.split(':')
  const course = items.find((i) => i.courseId !== null)?.courseId
  switch (order.kind) {
    case 'course':
      if (!course) return '/ke'
      return order.payMethod === 'points' && order.originalFen === 0
        ? `/course/creditPay/${course}`
        : `/course/coursePurchase?course_id=${course}`
    case 'vip':
      return items[0]?.vipPlanId ? `/vipBuy?plan_id=${items[0].vipPlanId}` : '/vipBuy'
    case 'bundle':
      return `/foryou/${ref}`
    case 'favourites':
      return '/myCollection'
    case 'amount': {
      const yuan = `${Math.floor(order.amountFen / 100)}.${String(order.amountFen % 100).padStart(2, '0')}`
      return `/PayAmount?amount=${yuan}&title=${encodeURIComponent(order.title)}`
    }
  }
}

export function toOrderView(order: OrderRow, items: OrderItemRow[]): z.infer<typeof OrderView> {
  const own = items.filter((i) => i.orderId === order.id)
  return {
    order_no: order.orderNo,
    kind: order.kind,
    state: order.state,
    title: order.title,
    amount_fen: order.amountFen,
    original_fen: order.originalFen,
    discount_fen: order.discountFen,
    points_used: order.pointsUsed,
    refunded_fen: order.refundedFen,
    pay_method: order.payMethod,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    closed_at: order.closedAt?.toISOString() ?? null,
    items: own.map((i) => ({ course_id: i.courseId, vip_plan_id: i.vipPlanId, title: i.title, price_fen: i.priceFen })),
    buy_again_path: buyAgainPath(order, own),
  }
}

interface Quote {
  options: { couponId: number; name: string; expiresAt: Date; discountFen: number }[]
  coupon: { couponId: number; name: string; discountFen: number } | null
  discountFen: number
  balance: number
  pointsMax: number
  points: number
  pointsFen: number
  amountFen: number
}

function checkoutData(order: OrderRow, reused: boolean, pay: PrepayResult): z.infer<typeof CheckoutData> {
  return {
    order_no: order.orderNo,
    kind: order.kind,
    state: order.state,
    title: order.title,
    amount_fen: order.amountFen,
    original_fen: order.originalFen,
    discount_fen: order.discountFen,
    points_used: order.pointsUsed,
    pay_method: order.payMethod,
    expires_at: order.expiresAt.toISOString(),
    reused,
    jsapi: pay.jsapi ?? null,
    h5_url: pay.h5Url ?? null,
    code_url: pay.codeUrl ?? null,
    redirect_url: pay.redirectUrl ?? null,
  }
}

/**
 * Orders: checkout for courses, VIP plans and given amounts (one pending order per member and thing, reused by a
 * second tap), the payment parameters from the provider, and the member's own order list and details.
 */
export function createOrderService(deps: OrderDeps) {
  const { db, config, providers, payments, now } = deps
  const lastPollQuery = new Map<string, number>()

  /**
   * The price of a purchase for a member now: the coupon (the chosen one, or by default the best that covers it,
   * or none when `couponId` is null), and `points` of the member's points at most up to the configured share.
   * `lockedBalance` is the balance a checkout transaction read when it locked the row (so concurrent checkouts
   * see each other's spending); a preview reads it here.
   */
  async function quote(
    tx: DbOrTx,
    ctx: { memberId: number; couponId?: number | null; points?: number },
    purchase: Purchase,
    at: Date,
    lockedBalance?: number,
  ): Promise<Quote> {
    const readBalance = async () => lockedBalance ?? (await pointBalance(tx, ctx.memberId))
    if (purchase.pointsPrice !== undefined) {
      const price = purchase.pointsPrice
      const balance = await readBalance()
      if (ctx.couponId) throw new AppError(Codes.CouponUnavailable, '积分兑换不能使用优惠券')
      if (balance < price)
        throw new AppError(Codes.PointsInsufficient, `积分不足：兑换需要 ${price} 积分，当前余额 ${balance} 积分`)
      return {
        options: [],
        coupon: null,
        discountFen: 0,
        balance,
        pointsMax: price,
        points: price,
        pointsFen: 0,
        amountFen: 0,
      }
    }
    const lines = purchase.couponLines
    const usable = lines ? await usableCoupons(tx, ctx.memberId, at) : []
    const options = lines
      ? usable
          .map((u) => ({
            couponId: u.coupon.id,
            name: u.template.name,
            expiresAt: u.coupon.expiresAt,
            discountFen: couponDiscountOn(u.template, lines),
          }))
          .filter((o) => o.discountFen > 0)
          .sort((x, y) => y.discountFen - x.discountFen || x.expiresAt.getTime() - y.expiresAt.getTime())
      : []
    let chosen: (typeof options)[number] | null = null
    if (typeof ctx.couponId === 'number') {
      chosen = options.find((o) => o.couponId === ctx.couponId) ?? null
      if (!chosen) throw new AppError(Codes.CouponUnavailable)
    } else if (ctx.couponId === undefined) chosen = options[0] ?? null
    const afterCoupon = purchase.priceFen - (chosen?.discountFen ?? 0)
    const balance = purchase.pointsAllowed ? await readBalance() : 0
    const max = purchase.pointsAllowed
      ? pointsFor(afterCoupon, Number.MAX_SAFE_INTEGER, config.payments.points).points
      : 0
    const points = ctx.points ?? 0
    if (points > max) throw new AppError(Codes.BadRequest, `最多可使用 ${max} 积分（points）`)
    if (points > balance) throw new AppError(Codes.PointsInsufficient)
    const pointsFen = points * config.payments.points.fenPerPoint
    return {
      options,
      coupon: chosen,
      discountFen: chosen?.discountFen ?? 0,
      balance,
      pointsMax: Math.min(max, balance),
      points,
      pointsFen,
      amountFen: afterCoupon - pointsFen,
    }
  }

  /** A second tap with the same choices (or none) pays the pending order again, while it has time left. */
  function reusable(pending: OrderRow, ctx: CheckoutContext, purchase: Purchase, at: Date) {
    return (
      pending.expiresAt.getTime() - at.getTime() > REUSE_MARGIN_MS &&
      pending.payMethod === ctx.payMethod &&
      pending.originalFen === purchase.priceFen &&
      (ctx.couponId === undefined || ctx.couponId === pending.couponId) &&
      (ctx.points === undefined || ctx.points === pending.pointsUsed)
    )
  }

  async function checkout(ctx: CheckoutContext, purchase: Purchase): Promise<z.infer<typeof CheckoutData>> {
    const provider = providerOf(ctx.payMethod)
    const openid = ctx.payMethod === 'wechat_jsapi' ? await findMemberOpenid(db, ctx.memberId) : null
    const actor = `member:${ctx.memberId}`

    const { order, reused, replaced } = await db.transaction(async (tx) => {
      const at = now()
      // One checkout per member at a time (the points balance row is the lock): a second tap waits for the first
      // and then finds its order, and coupons and points are counted in order.
      const balance = await lockBalance(tx, ctx.memberId, at)
      const pending = await findPendingOrder(tx, ctx.memberId, purchase.kind, purchase.target)
      let replacedNo: string | null = null
      let available = balance
      if (pending) {
        if (reusable(pending, ctx, purchase, at)) return { order: pending, reused: true, replaced: null }
        // Another method, coupon, points or price, or nearly expired: close it and start again (the provider is
        // told after); its coupon and points come back first so that the new order can use them.
        const closed = await transitionOrder(tx, pending.id, ['pending'], 'closed', { closedAt: at }, at)
        if (closed) {
          const released = await releaseBenefits(tx, closed, at, actor)
          await insertOrderEvent(tx, {
            orderId: pending.id,
            fromState: 'pending',
            toState: 'closed',
            reason: 'replaced',
            actor,
            data: { pay_method: ctx.payMethod, ...released },
            createdAt: at,
          })
          replacedNo = pending.orderNo
          available = await lockBalance(tx, ctx.memberId, at)
        }
      }
      const q = await quote(tx, ctx, purchase, at, available)
      // Whether a provider is needed is known only now (coupon and points may cover everything); refusing here
      // rolls back the replaced order's closing too.
      if (q.amountFen > 0 && (!provider || !config.payments[provider].enabled))
        throw new AppError(Codes.PayMethodUnavailable)
      if (q.amountFen > 0 && ctx.payMethod === 'wechat_jsapi' && !openid) throw new AppError(Codes.WechatOpenidRequired)
      const payMethod: PayMethod = q.amountFen > 0 ? ctx.payMethod : q.points > 0 ? 'points' : 'free'
      const inserted = await insertPendingOrder(tx, {
        orderNo: newOrderNo(at),
        memberId: ctx.memberId,
        kind: purchase.kind,
        target: purchase.target,
        title: purchase.title,
        amountFen: q.amountFen,
        originalFen: purchase.priceFen,
        discountFen: q.discountFen,
        pointsUsed: q.points,
        couponId: q.coupon?.couponId ?? null,
        payMethod,
        sp: ctx.sp,
        createdAt: at,
        expiresAt: new Date(at.getTime() + config.payments.orderExpireMinutes * 60_000),
        updatedAt: at,
      })
      if (!inserted) {
        // Another tap created it a moment ago: both taps pay the same order.
        const winner = await findPendingOrder(tx, ctx.memberId, purchase.kind, purchase.target)
        if (!winner) throw new AppError(Codes.Conflict)
        return { order: winner, reused: true, replaced: replacedNo }
      }
      await insertOrderItems(
        tx,
        purchase.items.map((i) => ({ ...i, orderId: inserted.id })),
      )
      await insertOrderEvent(tx, {
        orderId: inserted.id,
        fromState: null,
        toState: 'pending',
        reason: 'created',
        actor,
        data: { pay_method: payMethod, coupon_id: inserted.couponId, points: q.points },
        createdAt: at,
      })
      // A coupon is used by one order at a time, and points are spent once: both are conditional updates.
      if (q.coupon && !(await reserveCoupon(tx, q.coupon.couponId, ctx.memberId, inserted.id, at)))
        throw new AppError(Codes.CouponUnavailable)
      if (q.points > 0) {
        const left = await debitPoints(tx, {
          memberId: ctx.memberId,
          points: q.points,
          reason: 'order_spent',
          orderId: inserted.id,
          actor,
          at,
        })
        if (left === null) throw new AppError(Codes.PointsInsufficient)
      }
      if (q.amountFen === 0) {
        // Nothing left to pay: paid here, granted in the same transaction.
        const paid = (await transitionOrder(tx, inserted.id, ['pending'], 'paid', { paidAt: at }, at))!
        const granted = await grantOrder(tx, paid, at, config.payments.points)
        await insertOrderEvent(tx, {
          orderId: inserted.id,
          fromState: 'pending',
          toState: 'paid',
          reason: 'paid',
          actor,
          data: { pay_method: payMethod, ...granted },
          createdAt: at,
        })
        return { order: paid, reused: false, replaced: replacedNo }
      }
      return { order: inserted, reused: false, replaced: replacedNo }
    })

    if (replaced) {
      const old = providerOf((await findOrderByNo(db, replaced))?.payMethod ?? '')
      // Best effort: a payment that still arrives for it is handled like any payment of a closed order.
      if (old) void providers[old].close(replaced).catch(() => {})
    }
    if (order.state === 'paid' || !provider) return checkoutData(order, reused, {})

    let pay: PrepayResult
    try {
      pay = await providers[provider].prepay({
        method: order.payMethod as ProviderPayMethod,
        orderNo: order.orderNo,
        description: order.title,
        amountFen: order.amountFen,
        expiresAt: order.expiresAt,
        notifyUrl: payments.notifyUrl(provider),
        returnUrl: `${config.publicUrl}/payRedirect?order_no=${order.orderNo}`,
        quitUrl: `${config.publicUrl}${purchase.quitPath}`,
        openid,
        clientIp: ctx.clientIp,
      })
    } catch (err) {
      if (err instanceof ProviderError) throw new AppError(Codes.PaymentProviderFailed, undefined, undefined)
      throw err
    }
    return checkoutData(order, reused, pay)
  }

  /** A course for money, or with `withPoints` for its points price. */
  async function coursePurchase(memberId: number, courseId: number, withPoints = false): Promise<Purchase> {
    const course = await findCourseForMember(db, memberId, courseId, now())
    if (!course || course.status !== 'published') throw new AppError(Codes.NotFound, '课程不存在')
    if (course.isFree) throw new AppError(Codes.CourseFree)
    if (withPoints && course.pointsPrice === null) throw new AppError(Codes.NotForSale, '这门课程不支持积分兑换')
    if (!withPoints && course.priceFen === 0)
      throw new AppError(
        course.pointsPrice === null ? Codes.CourseFree : Codes.NotForSale,
        course.pointsPrice === null ? undefined : '这门课程只能用积分兑换',
      )
    if (course.owned) throw new AppError(Codes.CourseOwned)
    const target = `course:${course.id}`
    if (withPoints) {
      const title = course.title
      const items = [{ courseId: course.id, vipPlanId: null, vipDays: null, title, priceFen: 0 }]
      return {
        kind: 'course',
        target,
        title,
        priceFen: 0,
        items,
        quitPath: `/course/creditPay/${course.id}`,
        couponLines: null,
        pointsAllowed: true,
        pointsPrice: course.pointsPrice!,
      }
    }
    const categoryIds =
      course.parentCategoryId === null ? [course.categoryId] : [course.categoryId, course.parentCategoryId]
    return {
      kind: 'course',
      target,
      title: course.title,
      priceFen: course.priceFen,
      items: [{ courseId: course.id, vipPlanId: null, vipDays: null, title: course.title, priceFen: course.priceFen }],
      quitPath: `/course/${course.id}.html`,
      couponLines: [{ id: course.id, categoryIds, priceFen: course.priceFen }],
      pointsAllowed: true,
    }
  }

  /** Several courses in one order, each at its share of `lines`; coupons see each course at that share. */
  async function coursesLines(lines: { id: number; title: string; priceFen: number }[]) {
    const categories = await coursesCategories(
      db,
      lines.map((l) => l.id),
    )
    return {
      items: lines.map((l) => ({
        courseId: l.id,
        vipPlanId: null,
        vipDays: null,
        title: l.title,
        priceFen: l.priceFen,
      })),
      couponLines: lines.map((l) => ({ id: l.id, categoryIds: categories.get(l.id) ?? [], priceFen: l.priceFen })),
    }
  }

  /** A bundle on sale, at the member's price (the share of the courses they do not own yet). */
  async function bundlePurchase(memberId: number, bundleId: number): Promise<Purchase> {
    const bundle = await findBundle(db, bundleId)
    if (!bundle) throw new AppError(Codes.NotFound, '套餐不存在')
    if (!bundle.active) throw new AppError(Codes.NotForSale, '该套餐已停售')
    const paid = paidCourses(await findBundleCourses(db, [bundle.id]))
    const price = bundlePrice(
      bundle.priceFen,
      paid,
      await ownedCourseIds(
        db,
        memberId,
        paid.map((c) => c.id),
        now(),
      ),
    )
    if (!price) throw new AppError(Codes.CourseOwned, '套餐里的课程你都已拥有，直接去学习吧')
    const titles = new Map(paid.map((c) => [c.id, c.title]))
    const { items, couponLines } = await coursesLines(price.lines.map((l) => ({ ...l, title: titles.get(l.id)! })))
    return {
      kind: 'bundle',
      target: `bundle:${bundle.id}`,
      title: `套餐 · ${bundle.title}`,
      priceFen: price.amountFen,
      items,
      quitPath: `/foryou/${bundle.id}`,
      couponLines,
      pointsAllowed: true,
    }
  }

  /**
   * Favourite courses bought together: exactly the chosen ones (by default every paid favourite not owned yet),
   * each at its price. A chosen course that is no longer a buyable favourite stops the checkout with its title,
   * so the member never pays for a list other than the one they saw.
   */
  async function favouritesPurchase(memberId: number, courseIds: number[] | undefined): Promise<Purchase> {
    const buyable = await listBuyableFavourites(db, memberId, now())
    const chosen = courseIds ? [...new Set(courseIds)] : buyable.map((c) => c.id)
    if (chosen.length === 0) throw new AppError(Codes.BadRequest, '请选择要购买的课程')
    if (chosen.length > FAV_CHECKOUT_MAX)
      throw new AppError(Codes.BadRequest, `一次最多购买 ${FAV_CHECKOUT_MAX} 门课程（course_ids）`)
    const buyableIds = new Set(buyable.map((c) => c.id))
    const courses = await findCourses(db, chosen)
    const gone = chosen.filter((id) => !buyableIds.has(id))
    if (gone.length > 0) {
      const names = gone.map((id) => courses.find((c) => c.id === id)?.title ?? `#${id}`).join('、')
      throw new AppError(Codes.NotForSale, `这些课程已购买、已免费或不在收藏中：${names}，请刷新后重试`)
    }
    const { items, couponLines } = await coursesLines(
      courses.map((c) => ({ id: c.id, title: c.title, priceFen: c.priceFen })),
    )
    const sorted = [...chosen].sort((a, b) => a - b)
    return {
      kind: 'favourites',
      target: `fav:${sorted.join(',')}`,
      title: courses.length === 1 ? courses[0]!.title : `${courses[0]!.title} 等 ${courses.length} 门课程`,
      priceFen: courses.reduce((s, c) => s + c.priceFen, 0),
      items,
      quitPath: '/myCollection',
      couponLines,
      pointsAllowed: true,
    }
  }

  async function vipPurchase(planId: number): Promise<Purchase> {
    const plan = await findVipPlan(db, planId)
    if (!plan) throw new AppError(Codes.NotFound, 'VIP 套餐不存在')
    if (!plan.active || plan.priceFen < 1) throw new AppError(Codes.NotForSale, '该 VIP 套餐已停售')
    const title = `VIP 会员 · ${plan.name}`
    return {
      kind: 'vip',
      target: `vip:${plan.id}`,
      title,
      priceFen: plan.priceFen,
      items: [{ courseId: null, vipPlanId: plan.id, vipDays: plan.days, title, priceFen: plan.priceFen }],
      quitPath: '/vipBuy',
      couponLines: null,
      pointsAllowed: true,
    }
  }

  async function ownOrder(memberId: number, orderNo: string) {
    const order = await findOrderByNo(db, orderNo)
    // Another member's order answers exactly like one that does not exist.
    if (!order || order.memberId !== memberId) throw new AppError(Codes.NotFound, '订单不存在')
    return order
  }

  return {
    /**
     * Checkout of a course: refused when it is free, not on sale, or already owned. With pay method `points` the
     * course's points price is spent at once (/course/creditPay/{id}).
     */
    async payCourse(ctx: CheckoutContext, courseId: number) {
      return checkout(ctx, await coursePurchase(ctx.memberId, courseId, ctx.payMethod === 'points'))
    },

    /** Checkout of a bundle at the member's price (POST /foryou/pay). */
    async payBundle(ctx: CheckoutContext, bundleId: number) {
      return checkout(ctx, await bundlePurchase(ctx.memberId, bundleId))
    },

    /** Checkout of favourite courses together (POST /fav/pay). */
    async payFavourites(ctx: CheckoutContext, courseIds: number[] | undefined) {
      return checkout(ctx, await favouritesPurchase(ctx.memberId, courseIds))
    },

    /** Checkout of a VIP plan on sale. */
    async payVip(ctx: CheckoutContext, planId: number) {
      return checkout(ctx, await vipPurchase(planId))
    },

    /**
     * What the purchase page shows before paying: the coupons that apply (best first, the best chosen unless
     * another or none is asked for), the points that may be used, and what is left to pay.
     */
    async preview(
      memberId: number,
      what: {
        courseId?: number
        planId?: number
        bundleId?: number
        courseIds?: number[] | null
        couponId?: number
        points?: number
      },
    ) {
      const purchase =
        what.courseId !== undefined
          ? await coursePurchase(memberId, what.courseId)
          : what.bundleId !== undefined
            ? await bundlePurchase(memberId, what.bundleId)
            : what.courseIds !== undefined
              ? await favouritesPurchase(memberId, what.courseIds ?? undefined)
              : await vipPurchase(what.planId!)
      const couponId = what.couponId === 0 ? null : what.couponId
      const base = await quote(db, { memberId, couponId }, purchase, now())
      const points = Math.min(what.points ?? 0, base.pointsMax)
      const pointsFen = points * config.payments.points.fenPerPoint
      return {
        title: purchase.title,
        original_fen: purchase.priceFen,
        coupons: base.options.map((o) => ({
          coupon_id: o.couponId,
          name: o.name,
          discount_fen: o.discountFen,
          expires_at: o.expiresAt.toISOString(),
        })),
        coupon_id: base.coupon?.couponId ?? null,
        discount_fen: base.discountFen,
        points_balance: base.balance,
        points_max: base.pointsMax,
        fen_per_point: config.payments.points.fenPerPoint,
        points,
        points_fen: pointsFen,
        amount_fen: base.amountFen - pointsFen,
        items: purchase.items.map((i) => ({
          course_id: i.courseId,
          vip_plan_id: i.vipPlanId,
          title: i.title,
          price_fen: i.priceFen,
        })),
      }
    },

    /** Checkout of a given amount with a title (a link staff send: tuition, deposit). */
    async payAmount(ctx: CheckoutContext, amountFen: number, title: string) {
      const digest = crypto.createHash('sha256').update(title).digest('hex').slice(0, 16)
      return checkout(ctx, {
        kind: 'amount',
        target: `amount:${amountFen}:${digest}`,
        title,
        priceFen: amountFen,
        items: [{ courseId: null, vipPlanId: null, vipDays: null, title, priceFen: amountFen }],
        quitPath: '/PayAmount',
        couponLines: null,
        pointsAllowed: false,
      })
    },

    /**
     * One of the member's orders for the /payRedirect poll. While it is pending, the provider is asked (at most
     * every few seconds) so a member who came back before the notification sees the payment at once.
     */
    async status(memberId: number, orderNo: string) {
      let order = await ownOrder(memberId, orderNo)
      const key = order.orderNo
      if (
        order.state === 'pending' &&
        providerOf(order.payMethod) &&
        (lastPollQuery.get(key) ?? 0) + POLL_QUERY_EVERY_MS <= Date.now()
      ) {
        lastPollQuery.set(key, Date.now())
        if (lastPollQuery.size > 10_000) lastPollQuery.clear()
        if ((await payments.reconcile(order)) === 'paid') order = (await findOrderByNo(db, key))!
      }
      return toOrderView(order, await findItems(db, [order.id]))
    },

    /**
     * The member's orders, newest first, optionally of one kind, paged by cursor. Kind `course` lists every
     * order that gives courses (single courses, bundles, favourites bought together): the /order screen;
     * `exchange` the courses exchanged for points (/order4).
     */
    async list(memberId: number, filter: { kind?: OrderKind | 'exchange'; cursor?: number; limit: number }) {
      const exchanges = filter.kind === 'exchange'
      const kinds: OrderKind[] | undefined =
        filter.kind === 'course'
          ? ['course', 'bundle', 'favourites']
          : filter.kind && filter.kind !== 'exchange'
            ? [filter.kind]
            : undefined
      const rows = await listMemberOrders(db, memberId, {
        kinds,
        exchanges,
        before: filter.cursor,
        limit: filter.limit + 1,
      })
      const page = rows.slice(0, filter.limit)
      const items = await findItems(
        db,
        page.map((o) => o.id),
      )
      return {
        list: page.map((o) => toOrderView(o, items)),
        next_cursor: rows.length > filter.limit ? page[page.length - 1]!.id : null,
      }
    },

    /** One of the member's orders with its history; another member's order is "not found". */
    async detail(memberId: number, orderNo: string) {
      const order = await ownOrder(memberId, orderNo)
      const [items, events] = await Promise.all([findItems(db, [order.id]), findEvents(db, order.id)])
      return {
        ...toOrderView(order, items),
        events: events.map((e) => ({
          from: e.fromState,
          to: e.toState,
          reason: e.reason,
          at: e.createdAt.toISOString(),
        })),
      }
    },
  }
}

export type OrderService = ReturnType<typeof createOrderService>

const EXPORT_MAX_ROWS = 10_000

/** A Beijing calendar day's start. */
function beijingDay(day: string, plusDays = 0) {
  return new Date(new Date(`${day}T00:00:00+08:00`).getTime() + plusDays * 86_400_000)
}

function staffFilter(q: z.infer<typeof StaffOrderExportQuery>): Omit<StaffOrderFilter, 'limit'> {
  return {
    state: q.state,
    kind: q.kind,
    sp: q.sp || undefined,
    from: q.from ? beijingDay(q.from) : undefined,
    to: q.to ? beijingDay(q.to, 1) : undefined,
    q: q.q || undefined,
  }
}

/** One CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
function csvCell(value: string | number | null) {
  let text = value === null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

const yuanText = (fen: number) => `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`
const beijingTime = (d: Date | null) =>
  d ? new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : ''

/** Orders for operators: search and CSV export (server/modules/orders/orders.routes.ts, admin routes). */
export function createStaffOrderService(deps: { db: Db }) {
  return {
    /** Orders by state, kind, sp, Beijing date range and order number / phone / member id, newest first. */
    async search(query: z.infer<typeof StaffOrderQuery>) {
      const rows = await searchOrders(deps.db, { ...staffFilter(query), before: query.cursor, limit: query.limit + 1 })
      const page = rows.slice(0, query.limit)
      const items = await findItems(
        deps.db,
        page.map((r) => r.order.id),
      )
      return {
        list: page.map((r) => ({
          ...toOrderView(r.order, items),
          member_id: r.order.memberId,
          phone: r.phone,
          sp: r.order.sp,
          provider: r.order.provider,
          provider_txn_id: r.order.providerTxnId,
        })),
        next_cursor: rows.length > query.limit ? page[page.length - 1]!.order.id : null,
      }
    },

    /** The same search as CSV (UTF-8 with BOM for Excel), at most 10,000 rows, amounts in yuan, Beijing times. */
    async exportCsv(query: z.infer<typeof StaffOrderExportQuery>) {
      const header = [
        '订单号',
        '会员ID',
        '手机号',
        '类型',
        '标题',
        '应付(元)',
        '原价(元)',
        '优惠(元)',
        '积分',
        '状态',
        '支付方式',
        '支付平台',
        '交易号',
        '退款(元)',
        '推广来源',
        '下单时间',
        '支付时间',
        '关闭时间',
      ]
      const lines = [header.map(csvCell).join(',')]
      let before: number | undefined
      while (lines.length - 1 < EXPORT_MAX_ROWS) {
        const rows = await searchOrders(deps.db, {
          ...staffFilter(query),
          before,
          limit: Math.min(1000, EXPORT_MAX_ROWS - (lines.length - 1)),
        })
        for (const { order: o, phone } of rows) {
          lines.push(
            [
              o.orderNo,
              o.memberId,
              phone,
              o.kind,
              o.title,
              yuanText(o.amountFen),
              yuanText(o.originalFen),
              yuanText(o.discountFen),
              o.pointsUsed,
              o.state,
              o.payMethod,
              o.provider,
              o.providerTxnId,
              yuanText(o.refundedFen),
              o.sp,
              beijingTime(o.createdAt),
              beijingTime(o.paidAt),
              beijingTime(o.closedAt),
            ]
              .map(csvCell)
              .join(','),
          )
        }
        if (rows.length === 0 || rows.length < 1000) break
        before = rows[rows.length - 1]!.order.id
      }
      return `\uFEFF${lines.join('\r\n')}\r\n`
    },
  }
}
