import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import type { OverlayCaps } from '#shared/overlay-caps.ts'
import type { OverlayService } from './overlays.service.ts'
import { OverlayClickBody, OverlayListResponse } from './overlays.schema.ts'

/**
 * System notice overlays (spec 2, 3, 4): the active list with the frequency caps operators set (the settings
 * module's, passed in), and the click report.
 */
export const overlayRoutes = apiPlugin(
  { tags: ['overlays'], token: false },
  (r, { overlays, caps }: { overlays: OverlayService; caps: () => Promise<OverlayCaps> }) => {
    r.get(
      '/systemOverlay',
      {
        summary: 'Active system overlays, in display order, and how often a learner may see them',
        response: OverlayListResponse,
      },
      async () => {
        const [list, limits] = await Promise.all([overlays.active(), caps()])
        return { list, caps: limits }
      },
    )

    r.post(
      '/systemOverlay/click',
      {
        summary: 'Report a tap on an overlay’s button (signed in or not)',
        body: OverlayClickBody,
        response: emptyEnvelope,
      },
      async (request, memberId) => overlays.click(request.body.so_id, memberId),
    )
  },
)
