import { apiPlugin } from '#server/http/route.ts'
import type { HomeService } from './home.service.ts'
import { HomeFeedResponse } from './home.schema.ts'

/** The home feeds: GET /v3/index (the home page) and GET /v2/index (the older layout at /index1). */
export const homeRoutes = apiPlugin({ tags: ['home'], token: false }, (r, { home }: { home: HomeService }) => {
  r.get(
    '/v3/index',
    { summary: 'Home feed: banners, category shortcuts and course sections', response: HomeFeedResponse },
    async () => home.feed('v3'),
  )

  r.get('/v2/index', { summary: 'The simpler home feed of /index1', response: HomeFeedResponse }, async () =>
    home.feed('v2'),
  )
})
