import { listedRecords } from '#server/http/admin-list.ts'
import { adminPlugin, GroupAccess } from '#server/http/route.ts'
import { PopupCreate, PopupListQuery, PopupPatch } from '#shared/api/admin-popups.ts'
import { StaffPopup } from './popups-admin.schema.ts'
import type { PopupAdmin } from './learning.service.ts'

/**
 * The player's popups in the operators' console (under /api/admin/popups): list, add, change, switch off, remove.
 * A write drops the players' cached popups, so learners see it on their next video open.
 */
export const adminPopupRoutes = adminPlugin(GroupAccess.storefront, (r, { popups }: { popups: PopupAdmin }) => {
  // Permission: operator (marketing).
  listedRecords(r, '/admin/popups', popups, {
    summary: 'Player popups, on or off, by course, video, state and title, with their taps',
    querystring: PopupListQuery,
    row: StaffPopup,
    create: { summary: 'Add a popup to a course or a video', body: PopupCreate },
    edit: { summary: 'Change a popup, move it, switch it off (active false) or on', body: PopupPatch },
    remove: { summary: 'Remove a popup and its taps' },
  })
})
