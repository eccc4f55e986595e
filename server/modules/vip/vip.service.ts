import type { Db } from '#server/db/database.ts'
import { toCourseCard } from '#server/modules/catalogue/catalogue.service.ts'
import type { CourseCard } from '#server/modules/catalogue/catalogue.schema.ts'
import { findActivePlans, findVipFreeCourses } from './vip.repository.ts'

export interface VipPlan {
  id: number
  name: string
  days: number
  price_fen: number
  original_price_fen: number | null
  description: string
  badge: string | null
}

export const VIP_CENTRE_COURSES = 6

export function createVipService(deps: { db: Db }) {
  return {
    /**
     * What the VIP tab shows before buying exists: the plans on sale and some of the courses VIP makes free.
     * Two queries, run together.
     */
    async centre(): Promise<{ plans: VipPlan[]; courses: CourseCard[] }> {
      const [plans, courses] = await Promise.all([findActivePlans(deps.db), findVipFreeCourses(deps.db, VIP_CENTRE_COURSES)])
      return {
        plans: plans.map((p) => ({
          id: p.id,
          name: p.name,
          days: p.days,
          price_fen: p.priceFen,
          original_price_fen: p.originalPriceFen,
          description: p.description,
          badge: p.badge,
        })),
        courses: courses.map(toCourseCard),
      }
    },
  }
}

export type VipService = ReturnType<typeof createVipService>
