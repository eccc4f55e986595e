import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '#server/http/envelope.ts'
import type { HomeService } from './home.service.ts'
import { HomeFeedResponse } from './home.schema.ts'

const tags = ['home']

interface HomeRoutesOptions {
  home: HomeService
}

/** The home feeds: GET /v3/index (the home page) and GET /v2/index (the older layout at /index1). */
export async function homeRoutes(app: FastifyInstance, opts: HomeRoutesOptions) {
  const { home } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.get(
    '/v3/index',
    {
      schema: {
        tags,
        summary: 'Home feed: banners, category shortcuts and course sections',
        response: { 200: HomeFeedResponse },
      },
    },
    async () => ok(await home.feed('v3')),
  )

  r.get(
    '/v2/index',
    { schema: { tags, summary: 'The simpler home feed of /index1', response: { 200: HomeFeedResponse } } },
    async () => ok(await home.feed('v2')),
  )
}
