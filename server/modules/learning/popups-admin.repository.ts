import { and, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, tableList } from '#server/db/list.ts'
import { deleteWhere, rowsBy } from '#server/db/rows.ts'
import { playerPopups, popupClicks } from '#server/db/schema/learning.ts'

// The player's popups as operators keep them (the console's list and editing); the learner's reads stay in
// learning.repository.ts.

export type PopupRow = typeof playerPopups.$inferSelect

/** A popup found, added or changed by id. */
export const popupRows = rowsBy(playerPopups, playerPopups.id)

/** Removes a popup (its clicks go with it); false when there was none. */
export async function deletePopup(db: DbOrTx, id: number) {
  return (await deleteWhere(db, playerPopups, eq(playerPopups.id, id))) > 0
}

export interface PopupFilter {
  courseId?: number
  videoId?: number
  state?: 'on' | 'off'
  text?: string
}

function popupConditions(f: PopupFilter): SQL | undefined {
  const p = playerPopups
  return and(
    f.courseId === undefined ? undefined : eq(p.courseId, f.courseId),
    f.videoId === undefined ? undefined : eq(p.videoId, f.videoId),
    f.state === undefined ? undefined : eq(p.active, f.state === 'on'),
    f.text ? containsText(p.title, f.text) : undefined,
  )
}

const popupSorts = { id: playerPopups.id, at_second: playerPopups.atSecond, created_at: playerPopups.createdAt }

/** One page of popups (ties by id), and how many the filter matches. */
export const popupList = tableList(playerPopups, popupConditions, popupSorts)

/** Taps on these popups, by popup id (absent: none). */
export async function popupClickCounts(db: DbOrTx, popupIds: number[]): Promise<Map<number, number>> {
  if (popupIds.length === 0) return new Map()
  const rows = await db
    .select({ id: popupClicks.popupId, n: count() })
    .from(popupClicks)
    .where(inArray(popupClicks.popupId, popupIds))
    .groupBy(popupClicks.popupId)
  return new Map(rows.map((r) => [r.id, r.n]))
}
