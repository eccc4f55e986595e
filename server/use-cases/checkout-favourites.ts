import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { coursesForSale } from '#server/modules/catalogue/catalogue.service.ts'
import type { FavouritesService } from '#server/modules/favourites/favourites.service.ts'
import type { CommerceDeps } from './commerce-deps.ts'
import { placeOrder, type CheckoutContext } from './place-order.ts'
import { courseLines, type Purchase } from './price-order.ts'

/** At most this many courses in one favourites checkout. */
const FAV_CHECKOUT_MAX = 50

/** The favourites module's answer to "which favourites can this member buy now" (GET /fav/calc). */
export interface FavouritesDeps {
  favourites: Pick<FavouritesService, 'calc'>
}

/**
 * Favourite courses bought together as a purchase: exactly the chosen ones (by default every paid favourite not
 * owned yet), each at its price. A chosen course that is no longer a buyable favourite stops the checkout with its
 * title, so the member never pays for a list other than the one they saw.
 */
export async function favouritesPurchase(
  deps: Pick<CommerceDeps, 'db'> & FavouritesDeps,
  memberId: number,
  courseIds: number[] | undefined,
): Promise<Purchase> {
  const buyable = (await deps.favourites.calc(memberId)).course_ids
  const chosen = courseIds ? [...new Set(courseIds)] : buyable
  if (chosen.length === 0) throw new AppError(Codes.BadRequest, '请选择要购买的课程')
  if (chosen.length > FAV_CHECKOUT_MAX)
    throw new AppError(Codes.BadRequest, `一次最多购买 ${FAV_CHECKOUT_MAX} 门课程`, { field: 'course_ids' })
  const buyableIds = new Set(buyable)
  const courses = await coursesForSale(deps.db, chosen)
  const gone = chosen.filter((id) => !buyableIds.has(id))
  if (gone.length > 0) {
    const names = gone.map((id) => courses.find((c) => c.id === id)?.title ?? `#${id}`).join('、')
    throw new AppError(Codes.NotForSale, `这些课程已购买、已免费或不在收藏中：${names}，请刷新后重试`)
  }
  const { items, couponLines } = courseLines(courses)
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

/** Checkout of favourite courses together in one order (POST /fav/pay). */
export async function checkoutFavourites(
  deps: CommerceDeps & FavouritesDeps,
  ctx: CheckoutContext,
  courseIds: number[] | undefined,
) {
  return placeOrder(deps, ctx, await favouritesPurchase(deps, ctx.memberId, courseIds))
}
