import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { ownedAmong } from '#server/modules/access/access.service.ts'
import { coursesForSale } from '#server/modules/catalogue/catalogue.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'
import type { Purchase } from './price-order.ts'

/**
 * A course as a purchase: for money, or with `withPoints` for its points price (the points exchange,
 * /course/creditPay/{id}). Refused when it is not published, free, not sold that way, or already owned (the
 * catalogue's course with the programmes containing it, then the access module's ownership of either).
 */
export async function coursePurchase(
  deps: Pick<CommerceDeps, 'db' | 'now'>,
  memberId: number,
  courseId: number,
  withPoints = false,
): Promise<Purchase> {
  const [course] = await coursesForSale(deps.db, [courseId])
  if (!course || course.status !== 'published') throw new AppError(Codes.NotFound, '课程不存在')
  if (course.isFree) throw new AppError(Codes.CourseFree)
  if (withPoints && course.pointsPrice === null) throw new AppError(Codes.NotForSale, '这门课程不支持积分兑换')
  if (!withPoints && course.priceFen === 0)
    throw new AppError(
      course.pointsPrice === null ? Codes.CourseFree : Codes.NotForSale,
      course.pointsPrice === null ? undefined : '这门课程只能用积分兑换',
    )
  if ((await ownedAmong(deps.db, memberId, [course], deps.now())).has(course.id)) throw new AppError(Codes.CourseOwned)
  const target = `course:${course.id}`
  if (withPoints) {
    return {
      kind: 'course',
      target,
      title: course.title,
      priceFen: 0,
      items: [{ courseId: course.id, vipPlanId: null, vipDays: null, title: course.title, priceFen: 0 }],
      quitPath: `/course/creditPay/${course.id}`,
      couponLines: null,
      pointsAllowed: true,
      pointsPrice: course.pointsPrice!,
    }
  }
  return {
    kind: 'course',
    target,
    title: course.title,
    priceFen: course.priceFen,
    items: [{ courseId: course.id, vipPlanId: null, vipDays: null, title: course.title, priceFen: course.priceFen }],
    quitPath: `/course/${course.id}.html`,
    couponLines: [{ id: course.id, categoryIds: course.categoryIds, priceFen: course.priceFen }],
    pointsAllowed: true,
  }
}

/**
 * Checkout of a course (POST /pay/course): refused when it is free, not on sale, or already owned. With pay method
 * `points` the course's points price is spent at once.
 */
export async function checkoutCourse(deps: CommerceDeps, ctx: CheckoutContext, courseId: number) {
  return placeOrder(deps, ctx, await coursePurchase(deps, ctx.memberId, courseId, ctx.payMethod === 'points'))
}
