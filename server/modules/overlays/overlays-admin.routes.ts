import { listedRecords } from '#server/http/admin-list.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { OverlayCreate, OverlayListQuery, OverlayPatch } from '#shared/api/admin-overlays.ts'
import { OverlayPreviewResponse, StaffOverlay } from './overlays.schema.ts'
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
    listedRecords(r, '/admin/overlays', overlays, {
      summary: 'Overlays, on or off, by state (live, scheduled, ended, off) and name, with their taps',
      querystring: OverlayListQuery,
      row: StaffOverlay,
      create: { summary: 'Add an overlay', body: OverlayCreate },
      edit: {
        summary: 'Change an overlay, switch it off (active false) or on, move its window, mark it urgent',
        body: OverlayPatch,
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
