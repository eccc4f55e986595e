import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { invalidate } from '#server/http/public-cache.ts'
import { courseTitlesByIds, videoTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import type { PopupCreate, PopupListQuery, PopupPatch } from '#shared/api/admin-popups.ts'
import { POPUPS_TAG, popupView } from './popups.ts'
import type { StaffPopup } from './popups-admin.schema.ts'
import { deletePopup, popupRows, popupClickCounts, popupList, type PopupRow } from './popups-admin.repository.ts'

type Target = Pick<PopupCreate, 'target' | 'target_id'>

/** The titles of the courses and videos these popups show on (any status). */
async function targetTitles(db: Db, rows: Pick<PopupRow, 'courseId' | 'videoId'>[]) {
  const [courses, videos] = await Promise.all([
    courseTitlesByIds(
      db,
      rows.flatMap((r) => (r.videoId === null && r.courseId !== null ? [r.courseId] : [])),
    ),
    videoTitlesByIds(
      db,
      rows.flatMap((r) => (r.videoId !== null ? [r.videoId] : [])),
    ),
  ])
  return (r: Pick<PopupRow, 'courseId' | 'videoId'>) =>
    r.videoId !== null ? (videos.get(r.videoId) ?? '') : (courses.get(r.courseId!)?.title ?? '')
}

/** The row's columns of what the operator sent (undefined where a change leaves a field as it is). */
function fieldColumns<T extends PopupPatch | PopupCreate>(input: T) {
  type Of<K extends keyof PopupCreate> = T extends PopupCreate ? PopupCreate[K] : PopupCreate[K] | undefined
  return {
    atSecond: input.at_second as Of<'at_second'>,
    title: input.title as Of<'title'>,
    content: input.content,
    imageUrl: input.image_url,
    link: input.link,
    active: input.active,
  }
}

function toStaffPopup(row: PopupRow, clicks: number, title: string): StaffPopup {
  return {
    id: row.id,
    target: row.videoId !== null ? 'video' : 'course',
    target_id: row.videoId ?? row.courseId!,
    target_title: title,
    at_second: row.atSecond,
    title: row.title,
    content: row.content,
    image_url: row.imageUrl,
    link: row.link,
    active: row.active,
    clicks,
    created_at: row.createdAt.toISOString(),
    preview: popupView(row),
  }
}

/**
 * The player's popups in the operators' console: list, add, change, switch off and remove them. Each write drops the
 * players' cached popups (in every process), so a learner's next video open shows the change.
 */
export function createPopupAdmin(deps: { db: Db }) {
  const { db } = deps

  /** The columns of a target, after checking that the course or video exists (400 naming it otherwise). */
  async function targetColumns({ target, target_id: id }: Target) {
    const known =
      target === 'course' ? (await courseTitlesByIds(db, [id])).has(id) : (await videoTitlesByIds(db, [id])).has(id)
    if (!known)
      throw new AppError(Codes.BadRequest, `${target === 'course' ? '课程' : '视频'} ${id} 不存在`, {
        field: 'target_id',
      })
    return target === 'course' ? { courseId: id, videoId: null } : { courseId: null, videoId: id }
  }
  async function staffView(row: PopupRow, clicks: number) {
    return toStaffPopup(row, clicks, (await targetTitles(db, [row]))(row))
  }
  const changed = () => invalidate(db, [POPUPS_TAG])

  return {
    /** One page of popups, on or off, with where they show and their taps. */
    async list(q: PopupListQuery) {
      const filter = { courseId: q.course_id, videoId: q.video_id, state: q.state, text: q.q || undefined }
      return listing(popupList, db, q, filter).page(async (rows) => {
        const [clicks, title] = await Promise.all([
          popupClickCounts(
            db,
            rows.map((r) => r.id),
          ),
          targetTitles(db, rows),
        ])
        return rows.map((r) => toStaffPopup(r, clicks.get(r.id) ?? 0, title(r)))
      })
    },

    /** Adds a popup; players show it from their next open. */
    async create(input: PopupCreate) {
      const row = await popupRows.insert(db, { ...(await targetColumns(input)), ...fieldColumns(input) })
      await changed()
      return staffView(row, 0)
    },

    /** Changes a popup, moves it to another course or video, or switches it off (`active: false`) or on. */
    async patch(id: number, input: PopupPatch) {
      if (!(await popupRows.find(db, id))) throw new AppError(Codes.NotFound, `弹窗 ${id} 不存在`)
      const target = input.target && input.target_id ? await targetColumns(input as Target) : {}
      const row = await popupRows.update(db, id, { ...target, ...fieldColumns(input) })
      if (!row) throw new AppError(Codes.NotFound, `弹窗 ${id} 不存在`)
      await changed()
      return staffView(row, (await popupClickCounts(db, [id])).get(id) ?? 0)
    },

    /** Removes a popup and its counted taps. */
    async remove(id: number) {
      if (!(await deletePopup(db, id))) throw new AppError(Codes.NotFound, `弹窗 ${id} 不存在`)
      await changed()
    },
  }
}

export type PopupAdmin = ReturnType<typeof createPopupAdmin>
