import { and, asc, eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { withinWindow } from '#server/db/rows.ts'
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
