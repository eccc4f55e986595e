import { z } from 'zod'
import { listRoute } from '#server/http/admin-list.ts'
import { envelope } from '#server/http/envelope.ts'
import { adminPlugin, apiPlugin, GroupAccess } from '#server/http/route.ts'
import { VipPlanQuery } from '#shared/api/admin-vip.ts'
import { CourseListQuery } from '#shared/api/catalogue.ts'
import type { CatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import type { VipService } from './vip.service.ts'
import {
  StaffVipPlan,
  StaffVipPlanResponse,
  VipCentreResponse,
  VipCourseListResponse,
  VipPlanCreate,
  VipPlanPatch,
} from './vip.schema.ts'

interface VipRoutesOptions {
  vip: VipService
  /** Only the course list, filtered to VIP-free courses. */
  catalogue: Pick<CatalogueService, 'courseList'>
  /** The consult and customer-service links (the operators' customer-service setting). */
  contact: () => Promise<{ consult_url: string; service_url: string }>
}

/** The VIP centre (spec 7: GET /v2/vip). */
export const vipRoutes = apiPlugin(
  { tags: ['vip'], token: false },
  (r, { vip, catalogue, contact }: VipRoutesOptions) => {
    r.get(
      '/v2/vip',
      { summary: 'VIP plans on sale, some VIP-free courses, and my VIP when signed in', response: VipCentreResponse },
      async (_request, memberId) => {
        const [centre, membership] = await Promise.all([
          vip.centre(),
          memberId ? vip.membership(memberId) : Promise.resolve(null),
        ])
        return { ...centre, membership }
      },
    )

    r.get(
      '/vip/course_list',
      {
        summary: 'Courses free for VIP members, filtered and sorted like /v2/course_list, paged by cursor',
        querystring: CourseListQuery.omit({ vip_free: true }),
        response: VipCourseListResponse,
      },
      async (request) => catalogue.courseList({ ...request.query, vip_free: true }),
    )

    r.get(
      '/vip/contact',
      {
        summary: 'Where to ask about VIP: the consult and customer-service links',
        response: envelope(z.object({ consult_url: z.string(), service_url: z.string() })),
      },
      async () => {
        const { consult_url, service_url } = await contact()
        return { consult_url, service_url }
      },
    )
  },
)

/** VIP plans for operators (under /api/admin/, admins only). */
export const adminVipRoutes = adminPlugin(GroupAccess.marketing, (r, { vip }: { vip: VipService }) => {
  listRoute(r, '/admin/vip-plans', {
    summary: 'Every VIP plan, on sale or not, by name and state, in display order unless sorted otherwise',
    querystring: VipPlanQuery,
    row: StaffVipPlan,
    list: vip.plans,
  })
  r.records('/admin/vip-plans', {
    response: StaffVipPlanResponse,
    create: { summary: 'Add a VIP plan', body: VipPlanCreate, handler: (body) => vip.createPlan(body) },
    edit: {
      summary: 'Change or withdraw a VIP plan',
      body: VipPlanPatch,
      handler: (id, body) => vip.patchPlan(id, body),
    },
  })
})
