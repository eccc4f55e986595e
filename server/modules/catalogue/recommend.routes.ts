import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { RecommendService } from './catalogue.service.ts'
import { CourseCardListResponse, RecommendQuery } from './recommend.schema.ts'

const tags = ['recommend']
const security = [{ token: [] }]

interface RecommendRoutesOptions {
  recommend: RecommendService
}

/** Course recommendations (spec 7: /foryou, /center/recommend, /fav/recommend). Signed in or not. */
export async function recommendRoutes(app: FastifyInstance, opts: RecommendRoutesOptions) {
  const { recommend } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  for (const url of ['/foryou', '/center/recommend']) {
    r.get(
      url,
      {
        schema: {
          tags,
          security,
          summary:
            'Courses for the member: same categories as what they watched and favourited, not owned, popular first; popular courses for anonymous visitors',
          querystring: RecommendQuery,
          response: { 200: CourseCardListResponse },
        },
      },
      async (request) => ok(await recommend.forYou(request.principal?.memberId ?? null, request.query.limit)),
    )
  }

  r.get(
    '/fav/recommend',
    {
      schema: {
        tags,
        security,
        summary:
          'Courses related to the member’s favourites (same categories, not favourited, not owned), then popular ones',
        querystring: RecommendQuery,
        response: { 200: CourseCardListResponse },
      },
    },
    async (request) => ok(await recommend.favouriteRelated(request.principal?.memberId ?? null, request.query.limit)),
  )
}
