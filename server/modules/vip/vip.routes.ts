import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { envelope, ok } from '#server/http/envelope.ts'
import { CourseListQuery } from '#shared/api/catalogue.ts'
import type { Services } from '#server/services.ts'
import {
  StaffVipPlanList,
  StaffVipPlanResponse,
  VipCentreResponse,
  VipCourseListResponse,
  VipPlanCreate,
  VipPlanParams,
  VipPlanPatch,
} from './vip.schema.ts'

/** The VIP centre (spec 7: GET /v2/vip). */
export async function vipRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { vip } = opts.services
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
    async (request) => ok(await opts.services.catalogue.courseList({ ...request.query, vip_free: true })),
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
    async () =>
      ok({ consult_url: opts.services.config.client.consultUrl, service_url: opts.services.config.client.serviceUrl }),
  )
}

/** VIP plans for operators (under /api/admin/, admins only). */
export async function adminVipRoutes(app: FastifyInstance, opts: { services: Services }) {
  const { vip } = opts.services
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
