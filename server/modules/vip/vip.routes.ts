import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { envelope, ok } from '#server/http/envelope.ts'
import { CourseListQuery } from '#shared/api/catalogue.ts'
import type { CatalogueService } from '#server/modules/catalogue/catalogue.service.ts'
import type { VipService } from './vip.service.ts'
import {
  StaffVipPlanList,
  StaffVipPlanResponse,
  VipCentreResponse,
  VipCourseListResponse,
  VipPlanCreate,
  VipPlanParams,
  VipPlanPatch,
} from './vip.schema.ts'

interface VipRoutesOptions {
  vip: VipService
  /** Only the course list, filtered to VIP-free courses. */
  catalogue: Pick<CatalogueService, 'courseList'>
  /** The consult and customer-service links (config.client). */
  contact: { consultUrl: string; serviceUrl: string }
}

/** The VIP centre (spec 7: GET /v2/vip). */
export async function vipRoutes(app: FastifyInstance, opts: VipRoutesOptions) {
  const { vip, catalogue, contact } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.get(
    '/v2/vip',
    {
      schema: {
        tags: ['vip'],
        summary: 'VIP plans on sale, some VIP-free courses, and my VIP when signed in',
        response: { 200: VipCentreResponse },
      },
    },
    async (request) => {
      const memberId = request.principal?.memberId
      const [centre, membership] = await Promise.all([
        vip.centre(),
        memberId ? vip.membership(memberId) : Promise.resolve(null),
      ])
      return ok({ ...centre, membership })
    },
  )

  r.get(
    '/vip/course_list',
    {
      schema: {
        tags: ['vip'],
        summary: 'Courses free for VIP members, filtered and sorted like /v2/course_list, paged by cursor',
        querystring: CourseListQuery.omit({ vip_free: true }),
        response: { 200: VipCourseListResponse },
      },
    },
    async (request) => ok(await catalogue.courseList({ ...request.query, vip_free: true })),
  )

  r.get(
    '/vip/contact',
    {
      schema: {
        tags: ['vip'],
        summary: 'Where to ask about VIP: the consult and customer-service links',
        response: { 200: envelope(z.object({ consult_url: z.string(), service_url: z.string() })) },
      },
    },
    async () => ok({ consult_url: contact.consultUrl, service_url: contact.serviceUrl }),
  )
}

interface AdminVipRoutesOptions {
  vip: VipService
}

/** VIP plans for operators (under /api/admin/, admins only). */
export async function adminVipRoutes(app: FastifyInstance, opts: AdminVipRoutesOptions) {
  const { vip } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const config = { auth: 'admin' as const }
  const tags = ['admin']
  const security = [{ token: [] }]

  r.get(
    '/admin/vip-plans',
    { config, schema: { tags, security, summary: 'Every VIP plan', response: { 200: StaffVipPlanList } } },
    async () => ok(await vip.allPlans()),
  )
  r.post(
    '/admin/vip-plans',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add a VIP plan',
        body: VipPlanCreate,
        response: { 200: StaffVipPlanResponse },
      },
    },
    async (request) => ok(await vip.createPlan(request.body)),
  )
  r.patch(
    '/admin/vip-plans/:id',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Change or withdraw a VIP plan',
        params: VipPlanParams,
        body: VipPlanPatch,
        response: { 200: StaffVipPlanResponse },
      },
    },
    async (request) => ok(await vip.patchPlan(request.params.id, request.body)),
  )
}
