import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { OverlayCreate, OverlayListQuery, OverlayPatch } from '#shared/api/admin-overlays.ts'
import { isHttpUrl, sanitizeOverlayHtml } from './overlay-html.ts'
import {
  countOverlayClicks,
  overlayRows,
  insertOverlayClick,
  listActiveOverlays,
  overlayList,
  type OverlayRow,
} from './overlays.repository.ts'
import type { Overlay, StaffOverlay } from './overlays.schema.ts'

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

type Jump = OverlayCreate['jump']

/** The operator's jump as the row keeps it (spec 3's so_jump_type and so_jump_params). */
function jumpColumns(jump: Jump): Pick<OverlayRow, 'jumpType' | 'jumpParams'> {
  switch (jump.jump_type) {
    case 1:
      return { jumpType: 1, jumpParams: { course_id: jump.course_id } }
    case 2:
      return { jumpType: 2, jumpParams: { selected: jump.category_id } }
    case 4:
      return { jumpType: 4, jumpParams: { url: jump.url } }
    default:
      return { jumpType: null, jumpParams: null }
  }
}

/** Where a row is now: switched off, waiting for its start, over, or showing. */
function stateOf(row: OverlayRow, at: Date): StaffOverlay['state'] {
  if (!row.active) return 'off'
  if (row.startsAt && row.startsAt > at) return 'scheduled'
  if (row.endsAt && row.endsAt <= at) return 'ended'
  return 'live'
}

function toStaffOverlay(row: OverlayRow, clicks: number, at: Date): StaffOverlay {
  const learner = toOverlay(row)
  const p = learner.so_jump_params
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    content: row.content,
    button_text: row.buttonText,
    image_url: row.imageUrl,
    jump:
      learner.so_jump_type === 1
        ? { jump_type: 1, course_id: p.course_id }
        : learner.so_jump_type === 2
          ? { jump_type: 2, category_id: p.selected }
          : learner.so_jump_type === 4
            ? { jump_type: 4, url: p.url }
            : { jump_type: null },
    active: row.active,
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    sort: row.sort,
    urgent: row.urgent,
    state: stateOf(row, at),
    clicks,
    preview: learner,
  }
}

/** A draft's columns (content sanitised when saved, and again when served). */
function draftColumns(input: OverlayCreate) {
  return {
    type: input.type,
    name: input.name,
    content: sanitizeOverlayHtml(input.content),
    buttonText: input.button_text,
    imageUrl: input.image_url,
    ...jumpColumns(input.jump),
    active: input.active,
    startsAt: input.starts_at ? new Date(input.starts_at) : null,
    endsAt: input.ends_at ? new Date(input.ends_at) : null,
    sort: input.sort,
    urgent: input.urgent,
  }
}

const dateOrNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v))

export function createOverlayService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  async function requireOverlay(id: number) {
    const row = await overlayRows.find(db, id)
    if (!row) throw new AppError(Codes.NotFound, `弹窗 ${id} 不存在`)
    return row
  }
  return {
    /** Overlays active at this moment. */
    active: () => getActiveOverlays(db, now()),
    /** Records a click (member optional). */
    click: (overlayId: number, memberId: number | null) => recordOverlayClick(db, overlayId, memberId, now()),

    /** Operators: one page of overlays, on or off, with their state now and their taps. */
    async list(q: OverlayListQuery) {
      const at = now()
      const filter = { state: q.state, text: q.q || undefined, at }
      return listing(overlayList, db, q, filter).page((rows) =>
        rows.map((r) => toStaffOverlay(r.overlay, r.clicks, at)),
      )
    },

    /** Operators: a draft as learners would receive it (sanitised), for the console's preview; nothing is saved. */
    preview(input: OverlayCreate): Overlay {
      return toOverlay({ id: 0, ...draftColumns(input) })
    },

    /** Operators add an overlay; learners get it on their next page (GET /systemOverlay reads the table). */
    async create(input: OverlayCreate) {
      return toStaffOverlay(await overlayRows.insert(db, draftColumns(input)), 0, now())
    },

    /** Operators change an overlay, switch it off (`active: false`) or on again, or move its window. */
    async patch(id: number, input: OverlayPatch) {
      const found = await requireOverlay(id)
      const startsAt = dateOrNull(input.starts_at)
      const endsAt = dateOrNull(input.ends_at)
      const start = startsAt === undefined ? found.startsAt : startsAt
      const end = endsAt === undefined ? found.endsAt : endsAt
      if (start && end && start >= end)
        throw new AppError(Codes.BadRequest, '结束时间须晚于开始时间', { field: 'ends_at' })
      const type = input.type ?? found.type
      const image = input.image_url === undefined ? found.imageUrl : input.image_url
      if (type === 2 && !image) throw new AppError(Codes.BadRequest, '图片弹窗需要图片地址', { field: 'image_url' })
      const row = await overlayRows.update(db, id, {
        type: input.type,
        name: input.name,
        content: input.content === undefined ? undefined : sanitizeOverlayHtml(input.content),
        buttonText: input.button_text,
        imageUrl: input.image_url,
        ...(input.jump && jumpColumns(input.jump)),
        active: input.active,
        startsAt,
        endsAt,
        sort: input.sort,
        urgent: input.urgent,
      })
      return toStaffOverlay(row!, await countOverlayClicks(db, id), now())
    },
  }
}

export type OverlayService = ReturnType<typeof createOverlayService>
