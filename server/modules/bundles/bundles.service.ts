import type { z } from 'zod'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import { ownedCourseIds } from '#server/modules/access/access.service.ts'
import {
  coursesForSale,
  PUBLIC_CACHE_MS,
  toCourseCard,
  type CourseForSale,
} from '#server/modules/catalogue/catalogue.service.ts'
import { bundlePrice, type BundleLine } from './bundle-price.ts'
import {
  findBundle,
  findBundleCourseIds,
  findBundles,
  insertBundle,
  setBundleCourses,
  updateBundle,
  type BundleRow,
} from './bundles.repository.ts'
import type { BundleCard, BundleDetail, StaffBundleInput, StaffBundlePatch } from './bundles.schema.ts'

/** A course of a bundle: the catalogue's course with the bundle it is in. */
type BundleCourseRow = CourseForSale & { bundleId: number }

/** The courses of a bundle a member can be sold: published and not free. */
function paidCourses<T extends Pick<CourseForSale, 'id' | 'priceFen' | 'isFree' | 'status'>>(rows: T[]): T[] {
  return rows.filter((c) => c.status === 'published' && !c.isFree && c.priceFen > 0)
}

/** The courses of these bundles in each bundle's order, as the catalogue has them: two statements. */
async function findBundleCourses(db: DbOrTx, bundleIds: number[]): Promise<BundleCourseRow[]> {
  const links = await findBundleCourseIds(db, bundleIds)
  const courses = new Map(
    (
      await coursesForSale(
        db,
        links.map((l) => l.courseId),
      )
    ).map((c) => [c.id, c]),
  )
  return links.flatMap((l) => {
    const course = courses.get(l.courseId)
    return course ? [{ ...course, bundleId: l.bundleId }] : []
  })
}

function toCard(bundle: BundleRow, rows: BundleCourseRow[]): BundleCard {
  const visible = rows.filter((c) => c.status === 'published')
  return {
    id: bundle.id,
    title: bundle.title,
    subtitle: bundle.subtitle,
    cover: bundle.coverUrl,
    price_fen: bundle.priceFen,
    list_price_fen: paidCourses(rows).reduce((s, c) => s + c.priceFen, 0),
    course_count: visible.length,
    covers: visible.slice(0, 3).map((c) => c.coverUrl),
  }
}

function notFound() {
  return new AppError(Codes.NotFound, '套餐不存在')
}

/** The tag of every cached list of bundles on sale: any bundle written drops them. */
const BUNDLES_TAG = 'bundles'

/**
 * Course bundles (/foryou/{id}): the ones on sale, one with what the signed-in member would pay, and the
 * operators' API. Buying one is POST /foryou/pay (server/use-cases/checkout-bundle.ts).
 */
export function createBundleService(deps: { db: Db; now: () => Date; cacheMs?: number }) {
  const { db, now } = deps
  // Every render of a paid course's page reads its offer (three statements): kept like the catalogue's public reads
  // (key: the course id, 0 for all), dropped when a bundle is written or one of its courses is (the card shows
  // their prices and covers and counts the published ones).
  const listCache = publicCache({
    max: 10_000,
    ttlMs: deps.cacheMs ?? PUBLIC_CACHE_MS,
    load: (courseId: number) => loadList(courseId || undefined),
    tagsOf: (value) => [BUNDLES_TAG, ...value.courseIds.map((id) => `course:${id}`)],
  })

  async function loadList(courseId: number | undefined) {
    const bundles = await findBundles(db, { activeOnly: true, courseId })
    const rows = await findBundleCourses(
      db,
      bundles.map((b) => b.id),
    )
    return {
      list: bundles.map((b) =>
        toCard(
          b,
          rows.filter((r) => r.bundleId === b.id),
        ),
      ),
      courseIds: [...new Set(rows.map((r) => r.id))],
    }
  }

  async function staffView(bundle: BundleRow) {
    const rows = await findBundleCourses(db, [bundle.id])
    return {
      ...toCard(bundle, rows),
      intro: bundle.intro,
      active: bundle.active,
      sort: bundle.sort,
      course_ids: rows.map((c) => c.id),
      cover_url: bundle.coverUrl,
    }
  }

  async function checkCourses(courseIds: number[]) {
    if (courseIds.length < 2) throw new AppError(Codes.BadRequest, '套餐至少包含 2 门课程', { field: 'course_ids' })
    if (new Set(courseIds).size !== courseIds.length)
      throw new AppError(Codes.BadRequest, '课程不能重复', { field: 'course_ids' })
    const existing = new Set((await coursesForSale(db, courseIds)).map((c) => c.id))
    const missing = courseIds.filter((id) => !existing.has(id))
    if (missing.length > 0)
      throw new AppError(Codes.BadRequest, `课程不存在：${missing.join('、')}`, { field: 'course_ids' })
  }

  return {
    /** Bundles on sale, in display order; with `courseId`, those that hold that course (the course page's offer). */
    async list(courseId?: number): Promise<{ list: BundleCard[] }> {
      return { list: (await listCache.get(courseId ?? 0)).list }
    },

    /** One bundle with its published courses; for a member, which they own and what they would pay. */
    async detail(id: number, memberId: number | null): Promise<BundleDetail> {
      const bundle = await findBundle(db, id)
      if (!bundle) throw notFound()
      const rows = await findBundleCourses(db, [id])
      const visible = rows.filter((c) => c.status === 'published')
      const owned =
        memberId === null
          ? new Set<number>()
          : await ownedCourseIds(
              db,
              memberId,
              visible.map((c) => c.id),
              now(),
            )
      const price = bundlePrice(bundle.priceFen, paidCourses(rows), owned)
      return {
        ...toCard(bundle, rows),
        intro: bundle.intro,
        on_sale: bundle.active && price !== null,
        courses: visible.map((c) => ({ ...toCourseCard(c), owned: owned.has(c.id) })),
        pay_fen: price?.amountFen ?? null,
      }
    },

    /** Every bundle, on sale or not, for operators. */
    async all() {
      return { list: await Promise.all((await findBundles(db, { activeOnly: false })).map(staffView)) }
    },

    /** An operator adds a bundle. */
    async create(input: z.infer<typeof StaffBundleInput>) {
      await checkCourses(input.course_ids)
      const at = now()
      const bundle = await db.transaction(async (tx) => {
        const row = await insertBundle(tx, {
          title: input.title,
          subtitle: input.subtitle,
          coverUrl: input.cover_url ?? null,
          intro: input.intro,
          priceFen: input.price_fen,
          active: input.active,
          sort: input.sort,
          createdAt: at,
          updatedAt: at,
        })
        await setBundleCourses(tx, row.id, input.course_ids)
        return row
      })
      await invalidate(db, [BUNDLES_TAG])
      return staffView(bundle)
    },

    /** An operator changes a bundle (its courses are replaced when given; withdrawn with active false). */
    async patch(id: number, input: z.infer<typeof StaffBundlePatch>) {
      if (input.course_ids) await checkCourses(input.course_ids)
      const bundle = await db.transaction(async (tx) => {
        const row = await updateBundle(tx, id, {
          title: input.title,
          subtitle: input.subtitle,
          coverUrl: input.cover_url,
          intro: input.intro,
          priceFen: input.price_fen,
          active: input.active,
          sort: input.sort,
          updatedAt: now(),
        })
        if (!row) throw notFound()
        if (input.course_ids) await setBundleCourses(tx, id, input.course_ids)
        return row
      })
      await invalidate(db, [BUNDLES_TAG])
      return staffView(bundle)
    },
  }
}

export type BundleService = ReturnType<typeof createBundleService>

// ---- Selling a bundle (server/use-cases/checkout-bundle.ts) ----------------------------------------------------

/** A bundle on sale with the courses of it a member can be sold; NotFound or NotForSale otherwise. */
export async function bundleForSale(db: DbOrTx, bundleId: number) {
  const bundle = await findBundle(db, bundleId)
  if (!bundle) throw notFound()
  if (!bundle.active) throw new AppError(Codes.NotForSale, '该套餐已停售')
  return { bundle, paid: paidCourses(await findBundleCourses(db, [bundle.id])) }
}

/**
 * What a member pays for a bundle given the courses they own: the bundle price in proportion to what is still
 * missing, split over those courses (bundle-price.ts). Null when they own every paid course of it.
 */
export function bundlePriceFor(bundleFen: number, paid: BundleLine[], owned: ReadonlySet<number>) {
  return bundlePrice(bundleFen, paid, owned)
}
