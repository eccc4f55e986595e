import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { BundleService } from './bundles.service.ts'
import {
  BundleDetailResponse,
  BundleListQuery,
  BundleListResponse,
  BundleParams,
  StaffBundleInput,
  StaffBundleListResponse,
  StaffBundlePatch,
  StaffBundleResponse,
} from './bundles.schema.ts'

const tags = ['bundles']
const security = [{ token: [] }]

interface BundleRoutesOptions {
  bundles: BundleService
}

/** Course bundles (/foryou/{id}); buying one is POST /foryou/pay. Signed in or not. */
export async function bundleRoutes(app: FastifyInstance, opts: BundleRoutesOptions) {
  const { bundles } = opts
  const r = apiRoutes(app, { tags, token: false })

  r.get(
    '/foryou/bundles',
    {
      summary: 'Course bundles on sale, in display order (or those holding one course)',
      querystring: BundleListQuery,
      response: BundleListResponse,
    },
    async (request) => bundles.list(request.query.course_id),
  )

  r.get(
    '/foryou/bundles/:id',
    {
      token: true,
      summary: 'One bundle with its courses; signed in: which I own and what I would pay now',
      params: BundleParams,
      response: BundleDetailResponse,
    },
    async (request) => bundles.detail(request.params.id, request.principal?.memberId ?? null),
  )
}

interface AdminBundleRoutesOptions {
  bundles: BundleService
}

/** Bundles for operators (under /api/admin/, admins only). */
export async function adminBundleRoutes(app: FastifyInstance, opts: AdminBundleRoutesOptions) {
  const { bundles } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()
  const config = { auth: 'admin' as const }
  const admin = { tags: ['admin'], security }

  r.get(
    '/admin/bundles',
    { config, schema: { ...admin, summary: 'Every bundle', response: { 200: StaffBundleListResponse } } },
    async () => ok(await bundles.all()),
  )
  r.post(
    '/admin/bundles',
    {
      config,
      schema: {
        ...admin,
        summary: 'Add a bundle (its courses in order)',
        body: StaffBundleInput,
        response: { 200: StaffBundleResponse },
      },
    },
    async (request) => ok(await bundles.create(request.body)),
  )
  r.patch(
    '/admin/bundles/:id',
    {
      config,
      schema: {
        ...admin,
        summary: 'Change or withdraw a bundle',
        params: BundleParams,
        body: StaffBundlePatch,
        response: { 200: StaffBundleResponse },
      },
    },
    async (request) => ok(await bundles.patch(request.params.id, request.body)),
  )
}
