import { emptyEnvelope } from '#server/http/envelope.ts'
import { listRoute } from '#server/http/admin-list.ts'
import { adminPlugin } from '#server/http/route.ts'
import { PopupCreate, PopupListQuery, PopupPatch } from '#shared/api/admin-popups.ts'
import { StaffPopup, StaffPopupResponse } from './popups-admin.schema.ts'
import type { PopupAdmin } from './learning.service.ts'

/**
 * The player's popups in the operators' console (under /api/admin/popups): list, add, change, switch off, remove.
 * A write drops the players' cached popups, so learners see it on their next video open.
 */
export const adminPopupRoutes = adminPlugin(
  { read: 'catalogue.read', write: 'marketing.edit' },
  (r, { popups }: { popups: PopupAdmin }) => {
    // Permission: operator (marketing).
    listRoute(r, '/admin/popups', {
      summary: 'Player popups, on or off, by course, video, state and title, with their taps',
      querystring: PopupListQuery,
      row: StaffPopup,
      list: (q) => popups.list(q),
    })
    r.records('/admin/popups', {
      response: StaffPopupResponse,
      create: { summary: 'Add a popup to a course or a video', body: PopupCreate, handler: (b) => popups.create(b) },
      edit: {
        summary: 'Change a popup, move it, switch it off (active false) or on',
        body: PopupPatch,
        handler: (id, body) => popups.patch(id, body),
      },
      remove: { summary: 'Remove a popup and its taps', response: emptyEnvelope, handler: (id) => popups.remove(id) },
    })
  },
)
