import type { Db } from '#server/db/database.ts'
import type { systemOverlays } from '#server/db/schema/overlays.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { isHttpUrl, sanitizeOverlayHtml } from './overlay-html.ts'
import { insertOverlayClick, listActiveOverlays } from './overlays.repository.ts'
import type { Overlay } from './overlays.schema.ts'

type OverlayRow = typeof systemOverlays.$inferSelect

const intOrUndefined = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v)
    ? v
    : typeof v === 'string' && /^\d{1,10}$/.test(v)
      ? Number(v)
      : undefined

/** Presents an overlay with the spec's so_* fields; unsafe HTML and non-http(s) custom jumps are dropped. */
function toOverlay(row: OverlayRow): Overlay {
  const p = row.jumpParams ?? {}
  const params: Overlay['so_jump_params'] = {
    course_type: typeof p.course_type === 'string' ? p.course_type : undefined,
    course_id: intOrUndefined(p.course_id),
    course_vid: intOrUndefined(p.course_vid),
    selected: intOrUndefined(p.selected),
    type: p.type,
    url: isHttpUrl(p.url) ? p.url : undefined,
  }
  let jumpType = row.jumpType
  if (jumpType === 4 && !params.url) jumpType = null
  if (jumpType === 1 && !params.course_id) jumpType = null
  if (jumpType === 2 && params.selected === undefined) jumpType = null
  if (jumpType !== null && ![1, 2, 4].includes(jumpType)) jumpType = null
  return {
    so_id: row.id,
    so_type: row.type,
    so_name: row.name,
    so_content: sanitizeOverlayHtml(row.content),
    so_btn: row.buttonText,
    so_image: row.imageUrl,
    so_jump_type: jumpType,
    so_jump_params: params,
    so_urgent: row.urgent,
  }
}

/** The overlays to show now, in order. */
async function getActiveOverlays(db: Db, now: Date): Promise<Overlay[]> {
  return (await listActiveOverlays(db, now)).map(toOverlay)
}

/** Counts a tap on an overlay's button, by a member or an anonymous visitor; 404 for an unknown overlay. */
async function recordOverlayClick(db: Db, overlayId: number, memberId: number | null, now: Date) {
  const recorded = await insertOverlayClick(db, overlayId, memberId, now)
  if (!recorded) throw new AppError(Codes.NotFound, '弹窗不存在')
}

export function createOverlayService(deps: { db: Db; now: () => Date }) {
  return {
    /** Overlays active at this moment. */
    active: () => getActiveOverlays(deps.db, deps.now()),
    /** Records a click (member optional). */
    click: (overlayId: number, memberId: number | null) => recordOverlayClick(deps.db, overlayId, memberId, deps.now()),
  }
}

export type OverlayService = ReturnType<typeof createOverlayService>
