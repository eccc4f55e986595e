import type { Db, DbOrTx } from '#server/db/database.ts'
import { COURSE_LISTS_TAG, PUBLIC_CACHE_MS, vipFreeCourseCards } from '#server/modules/catalogue/catalogue.service.ts'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { findVipMembership as findMembership } from '#server/modules/access/access.service.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { violatesUnique } from '#server/db/unique-violation.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import { listing } from '#server/http/admin-list.ts'
import type { StaffVipPlan, VipPlanQuery } from '#shared/api/admin-vip.ts'
import { fenToYuan } from '#shared/money.ts'
import type { z } from 'zod'
import { findActivePlans, findPlan, insertPlan, planList, updatePlan, type PlanFilter } from './vip.repository.ts'
import type { VipPlanCreate, VipPlanPatch } from './vip.schema.ts'

/** The columns of the plans' CSV export, in the order of `planCells`. */
const VIP_PLAN_CSV_HEADER = ['套餐ID', '名称', '天数', '价格（元）', '划线价（元）', '角标', '在售', '排序']

const VIP_CENTRE_COURSES = 6

/** The tag of the cached VIP centre: a plan written drops it (a course written drops it as a course list). */
const VIP_PLANS_TAG = 'vip-plans'

/** A plan as members see it. */
function toPlan(p: Awaited<ReturnType<typeof findActivePlans>>[number]) {
  return {
    id: p.id,
    name: p.name,
    days: p.days,
    price_fen: p.priceFen,
    original_price_fen: p.originalPriceFen,
    description: p.description,
    badge: p.badge,
  }
}

/** A plan as operators see it: also whether it is on sale and its place in the list. */
function staffPlan(p: Awaited<ReturnType<typeof planList.page>>[number]): StaffVipPlan {
  return { ...toPlan(p), active: p.active, sort: p.sort }
}

/** A plan as a row of the CSV export (VIP_PLAN_CSV_HEADER). */
function planCells(p: StaffVipPlan) {
  const original = p.original_price_fen === null ? '' : fenToYuan(p.original_price_fen)
  return [p.id, p.name, p.days, fenToYuan(p.price_fen), original, p.badge ?? '', p.active, p.sort]
}

/** A write refused by the unique index of plans on sale as Conflict on `field` (the name, or putting it on sale). */
async function onSaleOnce<R>(name: string, field: string, write: () => Promise<R>): Promise<R> {
  try {
    return await write()
  } catch (err) {
    if (violatesUnique(err, 'vip_plans_active_name_key'))
      throw new AppError(Codes.Conflict, `在售的套餐里已有名为「${name}」的套餐`, { field })
    throw err
  }
}

const planFilter = (q: VipPlanQuery): PlanFilter => ({
  active: q.active === undefined ? undefined : q.active === 'true',
  text: q.q || undefined,
})

type PlanColumns = Parameters<typeof insertPlan>[1]

/**
 * An operator's plan fields as columns: all of them for a new plan (no badge or crossed-out price given: null), those a
 * patch names for a change (the others stay undefined, so unchanged).
 */
function planColumns(input: z.infer<typeof VipPlanCreate>): PlanColumns
function planColumns(input: z.infer<typeof VipPlanPatch>): Partial<PlanColumns>
function planColumns(input: z.infer<typeof VipPlanPatch>): Partial<PlanColumns> {
  return {
    name: input.name,
    days: input.days,
    priceFen: input.price_fen,
    originalPriceFen: input.original_price_fen,
    description: input.description,
    badge: input.badge,
    active: input.active,
    sort: input.sort,
  }
}

export function createVipService(deps: { db: Db; now?: () => Date; cacheMs?: number }) {
  const now = deps.now ?? (() => new Date())
  // Read by every render of /vip (and GET /v2/vip/centre): kept like the course lists it shows a part of.
  const centreCache = publicCache({
    max: 1,
    ttlMs: deps.cacheMs ?? PUBLIC_CACHE_MS,
    load: async (_: 'centre') => {
      const [plans, courses] = await Promise.all([
        findActivePlans(deps.db),
        vipFreeCourseCards(deps.db, VIP_CENTRE_COURSES),
      ])
      return { plans: plans.map(toPlan), courses }
    },
    tagsOf: () => [VIP_PLANS_TAG, COURSE_LISTS_TAG],
  })
  return {
    /**
     * What the VIP tab shows before buying exists: the plans on sale and some of the courses VIP makes free.
     * Two queries, run together.
     */
    async centre(): Promise<{ plans: ReturnType<typeof toPlan>[]; courses: CourseCard[] }> {
      return centreCache.get('centre')
    },

    /** The plans, on sale or not, for operators: a page, or the CSV (VIP_PLAN_CSV_HEADER) of every match. */
    plans: {
      page: (q: VipPlanQuery) => listing(planList, deps.db, q, planFilter(q)).page((rows) => rows.map(staffPlan)),
      csv: (q: VipPlanQuery) =>
        listing(planList, deps.db, q, planFilter(q)).csv(VIP_PLAN_CSV_HEADER, (rows) =>
          rows.map((r) => planCells(staffPlan(r))),
        ),
    },

    /**
     * An operator adds a plan. Orders keep the days and price they were bought with. Two plans on sale never share a
     * name (a withdrawn one may: its name stays on the orders that bought it).
     */
    async createPlan(input: z.infer<typeof VipPlanCreate>) {
      const row = await onSaleOnce(input.name, 'name', () => insertPlan(deps.db, planColumns(input)))
      await invalidate(deps.db, [VIP_PLANS_TAG])
      return staffPlan(row)
    },

    /** An operator changes a plan (withdraws it with active false). */
    async patchPlan(id: number, input: z.infer<typeof VipPlanPatch>) {
      const before = await findPlan(deps.db, id)
      if (!before) throw new AppError(Codes.NotFound, 'VIP 套餐不存在')
      // A rename onto a plan on sale, or putting a plan back on sale beside one of its name, is refused alike.
      const row = await onSaleOnce(input.name ?? before.name, input.name !== undefined ? 'name' : 'active', () =>
        updatePlan(deps.db, id, planColumns(input)),
      )
      if (!row) throw new AppError(Codes.NotFound, 'VIP 套餐不存在')
      await invalidate(deps.db, [VIP_PLANS_TAG])
      return staffPlan(row)
    },

    /** A member's VIP: running or not, and until when (null: never had one). */
    async membership(memberId: number): Promise<{ active: boolean; expires_at: string } | null> {
      const row = await findMembership(deps.db, memberId)
      if (!row) return null
      return { active: row.expiresAt > now(), expires_at: row.expiresAt.toISOString() }
    },
  }
}

export type VipService = ReturnType<typeof createVipService>

// ---- Selling a plan (server/use-cases/checkout-vip.ts) ---------------------------------------------------------

/** A VIP plan on sale (its days and price as they are now); NotFound or NotForSale otherwise. */
export async function vipPlanForSale(db: DbOrTx, planId: number) {
  const plan = await findPlan(db, planId)
  if (!plan) throw new AppError(Codes.NotFound, 'VIP 套餐不存在')
  if (!plan.active || plan.priceFen < 1) throw new AppError(Codes.NotForSale, '该 VIP 套餐已停售')
  return plan
}
