import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import type { StatsService } from './stats.service.ts'
import { StatClickBody, statNames } from './stats.schema.ts'

/**
 * Click statistics (spec 7: POST /stat/{project,studyRecord,fav,bindPhone,courseDetailTag,customer,myCourse,
 * vipTarbar,vipBuyBtn}/click). Anyone may send them; the member is recorded when the token is valid, and a
 * stale token never turns a statistic into a login prompt.
 */
export interface StatsRoutesOptions {
  stats: StatsService
  /** The member a token belongs to (null: none, revoked or expired), for beacons that carry it in the body. */
  memberOfToken: (token: string) => Promise<number | null>
}

export const statsRoutes = apiPlugin({ tags: ['stats'] }, (r, { stats, memberOfToken }: StatsRoutesOptions) => {
  for (const name of statNames) {
    r.post(
      `/stat/${name}/click`,
      { summary: `Record a click (${name}) with its position and page`, body: StatClickBody, response: emptyEnvelope },
      async (request, memberId) => {
        const member = memberId ?? (request.body.token ? await memberOfToken(request.body.token) : null)
        return stats.click(name, member, request.body)
      },
    )
  }
})
