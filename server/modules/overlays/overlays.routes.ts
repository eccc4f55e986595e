import { emptyEnvelope } from '#server/http/envelope.ts'
import { apiPlugin } from '#server/http/route.ts'
import type { OverlayService } from './overlays.service.ts'
import { OverlayClickBody, OverlayListResponse } from './overlays.schema.ts'

/** System notice overlays (spec 2, 3, 4): the active list and the click report. */
export const overlayRoutes = apiPlugin(
  { tags: ['overlays'], token: false },
  (r, { overlays }: { overlays: OverlayService }) => {
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
      async (request, memberId) => overlays.click(request.body.so_id, memberId),
    )
  },
)
