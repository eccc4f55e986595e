import { and, asc, eq, gt, lte, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText, selectList } from '#server/db/list.ts'
import { rowsBy, withinWindow } from '#server/db/rows.ts'
import { overlayClicks, systemOverlays } from '#server/db/schema/overlays.ts'

/** Overlays switched on and inside their time window at `now`, in display order. */
export async function listActiveOverlays(db: DbOrTx, now: Date) {
  return db
    .select()
    .from(systemOverlays)
    .where(and(eq(systemOverlays.active, true), withinWindow(systemOverlays.startsAt, systemOverlays.endsAt, now)))
    .orderBy(asc(systemOverlays.sort), asc(systemOverlays.id))
}

/** Records a click on an existing overlay in one statement; false when there is no such overlay. */
export async function insertOverlayClick(db: DbOrTx, overlayId: number, memberId: number | null, at: Date) {
  const result = await db.execute(
    sql`insert into ${overlayClicks} (overlay_id, member_id, created_at)
        select ${systemOverlays.id}, ${memberId}, ${at} from ${systemOverlays} where ${systemOverlays.id} = ${overlayId}`,
  )
  return (result.rowCount ?? 0) > 0
}

// ---- Operators (the console's overlay list and editing) ------------------------------------------------------

export type OverlayRow = typeof systemOverlays.$inferSelect

/** An overlay found, added or changed by id. */
export const overlayRows = rowsBy(systemOverlays, systemOverlays.id)

export interface OverlayFilter {
  /** live: on and inside its window now; scheduled: on, starting later; ended: on, window over; off: switched off. */
  state?: 'live' | 'scheduled' | 'ended' | 'off'
  text?: string
  at: Date
}

/** What each state of the filter picks at a moment. */
const overlayStates: Record<NonNullable<OverlayFilter['state']>, (at: Date) => SQL | undefined> = {
  off: () => eq(systemOverlays.active, false),
  live: (at) => and(eq(systemOverlays.active, true), withinWindow(systemOverlays.startsAt, systemOverlays.endsAt, at)),
  scheduled: (at) => and(eq(systemOverlays.active, true), gt(systemOverlays.startsAt, at)),
  ended: (at) => and(eq(systemOverlays.active, true), lte(systemOverlays.endsAt, at)),
}

function overlayConditions(f: OverlayFilter): SQL | undefined {
  return and(
    f.state === undefined ? undefined : overlayStates[f.state](f.at),
    f.text ? containsText(systemOverlays.name, f.text) : undefined,
  )
}

const overlaySorts = { id: systemOverlays.id, sort: systemOverlays.sort, starts_at: systemOverlays.startsAt }

const clicks = sql<number>`(select count(*)::int from ${overlayClicks} c where c.overlay_id = ${systemOverlays}.id)`

/** One page of overlays with how many taps each button got (ties by id), and how many the filter matches. */
export const overlayList = selectList(
  systemOverlays,
  { overlay: systemOverlays, clicks },
  overlayConditions,
  overlaySorts,
)

/** Taps on one overlay's button. */
export async function countOverlayClicks(db: DbOrTx, overlayId: number) {
  return db.$count(overlayClicks, eq(overlayClicks.overlayId, overlayId))
}
