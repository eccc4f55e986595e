import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard, CourseList } from '#shared/api/catalogue.ts'
import { MemberVip } from '#shared/api/members.ts'

const VipPlanView = z.object({
  id: z.number().int(),
  name: z.string(),
  days: z.number().int(),
  price_fen: Fen,
  original_price_fen: Fen.nullable(),
  description: z.string(),
  badge: z.string().nullable(),
})

/** The member's VIP (shared with /userinfo). */
export const VipMembership = MemberVip

export const VipCentreResponse = envelope(
  z.object({
    plans: z.array(VipPlanView),
    courses: z.array(CourseCard),
    /** The signed-in member's VIP; null for visitors and members who never had one. */
    membership: VipMembership.nullable(),
  }),
)

/** VIP-free courses, paged like /v2/course_list. */
export const VipCourseListResponse = envelope(CourseList)

export const StaffVipPlan = VipPlanView.extend({ active: z.boolean(), sort: z.number().int() })
export const StaffVipPlanResponse = envelope(StaffVipPlan)
export { VipPlanCreate, VipPlanPatch } from '#shared/api/admin-vip.ts'
