import type { FastifyInstance } from 'fastify'
import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiRoutes } from '#server/http/route.ts'
import type { OverlayService } from './overlays.service.ts'
import { OverlayClickBody, OverlayListResponse } from './overlays.schema.ts'

const tags = ['overlays']

interface OverlayRoutesOptions {
  overlays: OverlayService
}

/** System notice overlays (spec 2, 3, 4): the active list and the click report. */
export async function overlayRoutes(app: FastifyInstance, opts: OverlayRoutesOptions) {
  const { overlays } = opts
  const r = apiRoutes(app, { tags, token: false })

  r.get(
    '/systemOverlay',
    { summary: 'Active system overlays, in display order', response: OverlayListResponse },
    async () => ({ list: await overlays.active() }),
  )

  r.post(
    '/systemOverlay/click',
    {
      summary: 'Report a tap on an overlay’s button (signed in or not)',
      body: OverlayClickBody,
      response: emptyEnvelope,
    },
    async (request) => {
      await overlays.click(request.body.so_id, request.principal?.memberId ?? null)
      return {}
    },
  )
}
