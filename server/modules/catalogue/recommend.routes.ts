import { apiPlugin } from '#server/http/route.ts'
import type { RecommendService } from './catalogue.service.ts'
import { CourseCardListResponse, RecommendQuery } from './recommend.schema.ts'

/** Course recommendations (spec 7: /foryou, /center/recommend, /fav/recommend). Signed in or not. */
export const recommendRoutes = apiPlugin(
  { tags: ['recommend'] },
  (r, { recommend }: { recommend: RecommendService }) => {
    for (const url of ['/foryou', '/center/recommend']) {
      r.get(
        url,
        {
          summary:
            'Courses for the member: same categories as what they watched and favourited, not owned, popular first; popular courses for anonymous visitors',
          querystring: RecommendQuery,
          response: CourseCardListResponse,
        },
        async (request, memberId) => recommend.forYou(memberId, request.query.limit),
      )
    }

    r.get(
      '/fav/recommend',
      {
        summary:
          'Courses related to the member’s favourites (same categories, not favourited, not owned), then popular ones',
        querystring: RecommendQuery,
        response: CourseCardListResponse,
      },
      async (request, memberId) => recommend.favouriteRelated(memberId, request.query.limit),
    )
  },
)
