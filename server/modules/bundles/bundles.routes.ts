import { adminPlugin, apiPlugin, GroupAccess } from '#server/http/route.ts'
import { IdParams } from '#shared/api/params.ts'
import type { BundleService } from './bundles.service.ts'
import {
  BundleDetailResponse,
  BundleListQuery,
  BundleListResponse,
  StaffBundleInput,
  StaffBundleListResponse,
  StaffBundlePatch,
  StaffBundleResponse,
} from './bundles.schema.ts'

/** Course bundles (/foryou/{id}); buying one is POST /foryou/pay. Signed in or not. */
export const bundleRoutes = apiPlugin(
  { tags: ['bundles'], token: false },
  (r, { bundles }: { bundles: BundleService }) => {
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
        params: IdParams,
        response: BundleDetailResponse,
      },
      async (request, memberId) => bundles.detail(request.params.id, memberId),
    )
  },
)

/** Bundles for operators (under /api/admin/, admins only). */
export const adminBundleRoutes = adminPlugin(GroupAccess.storefront, (r, { bundles }: { bundles: BundleService }) => {
  r.records('/admin/bundles', {
    response: StaffBundleResponse,
    list: { summary: 'Every bundle', response: StaffBundleListResponse, handler: () => bundles.all() },
    create: {
      summary: 'Add a bundle (its courses in order)',
      body: StaffBundleInput,
      handler: (body) => bundles.create(body),
    },
    edit: {
      summary: 'Change or withdraw a bundle',
      body: StaffBundlePatch,
      handler: (id, body) => bundles.patch(id, body),
    },
  })
})
