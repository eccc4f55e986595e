import type { FastifyInstance } from 'fastify'
import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { StatsService } from './stats.service.ts'
import { StatClickBody, statNames } from './stats.schema.ts'

interface StatsRoutesOptions {
  stats: StatsService
}

/**
 * Click statistics (spec 7: POST /stat/{project,studyRecord,fav,bindPhone,courseDetailTag,customer,myCourse,
 * vipTarbar,vipBuyBtn}/click). Anyone may send them; the member is recorded when the token is valid, and a
 * stale token never turns a statistic into a login prompt.
 */
export async function statsRoutes(app: FastifyInstance, opts: StatsRoutesOptions) {
  const { stats } = opts
  const r = apiRoutes(app, { tags: ['stats'] })

  for (const name of statNames) {
    r.post(
      `/stat/${name}/click`,
      { summary: `Record a click (${name}) with its position and page`, body: StatClickBody, response: emptyEnvelope },
      async (request) => {
        await stats.click(name, request.principal?.memberId ?? null, request.body)
        return {}
      },
    )
  }
}
