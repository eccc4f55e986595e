import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { emptyEnvelope, ok } from '#server/http/envelope.ts'
import type { OverlayService } from './overlays.service.ts'
import { OverlayClickBody, OverlayListResponse } from './overlays.schema.ts'

const tags = ['overlays']

interface OverlayRoutesOptions {
  overlays: OverlayService
}

/** System notice overlays (spec 2, 3, 4): the active list and the click report. */
export async function overlayRoutes(app: FastifyInstance, opts: OverlayRoutesOptions) {
  const { overlays } = opts
  const r = app.withTypeProvider<ZodTypeProvider>()

  r.get(
    '/systemOverlay',
    { schema: { tags, summary: 'Active system overlays, in display order', response: { 200: OverlayListResponse } } },
    async () => ok({ list: await overlays.active() }),
  )

  r.post(
    '/systemOverlay/click',
    {
      schema: {
        tags,
        summary: 'Report a tap on an overlay’s button (signed in or not)',
        body: OverlayClickBody,
        response: { 200: emptyEnvelope },
      },
    },
    async (request) => {
      await overlays.click(request.body.so_id, request.principal?.memberId ?? null)
      return ok({})
    },
  )
}
