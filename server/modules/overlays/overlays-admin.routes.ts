import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { OverlayCreate, OverlayListQuery, OverlayPatch } from '#shared/api/admin-overlays.ts'
import { OverlayPreviewResponse, StaffOverlay, StaffOverlayResponse } from './overlays.schema.ts'
import type { OverlayService } from './overlays.service.ts'

/**
 * System overlays in the operators' console (under /api/admin/overlays): list, add, change, switch off, schedule
 * (starts_at, ends_at), order and the urgent flag. GET /api/systemOverlay reads the table on every request, so
 * learners see a change on their next page.
 */
export const adminOverlayRoutes = adminPlugin(
  GroupAccess.storefront,
  (r, { overlays }: { overlays: OverlayService }) => {
    // Permission: operator (marketing).
    listRoute(r, '/admin/overlays', {
      summary: 'Overlays, on or off, by state (live, scheduled, ended, off) and name, with their taps',
      querystring: OverlayListQuery,
      row: StaffOverlay,
      list: (q) => overlays.list(q),
    })
    r.records('/admin/overlays', {
      response: StaffOverlayResponse,
      create: { summary: 'Add an overlay', body: OverlayCreate, handler: (body) => overlays.create(body) },
      edit: {
        summary: 'Change an overlay, switch it off (active false) or on, move its window, mark it urgent',
        body: OverlayPatch,
        handler: (id, body) => overlays.patch(id, body),
      },
    })
    r.post(
      '/admin/overlays/preview',
      {
        summary: 'A draft as learners would receive it (sanitised HTML, checked jump); nothing is saved',
        permission: 'catalogue.read',
        body: OverlayCreate,
        response: OverlayPreviewResponse,
      },
      async ({ body }) => overlays.preview(body),
    )
  },
)
