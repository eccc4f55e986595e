import { like } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { eqIfGiven, newestFirst } from '#server/db/rows.ts'
import { staffActions } from '#server/db/schema/audit.ts'

export type NewStaffAction = typeof staffActions.$inferInsert

export async function insertStaffAction(db: DbOrTx, row: NewStaffAction) {
  await db.insert(staffActions).values(row)
}

/** Operators' actions, newest first: by one operator, by route prefix ("/api/admin/refunds"), paged by id. */
export async function listStaffActions(
  db: DbOrTx,
  f: { memberId?: number; route?: string; before?: number; limit: number },
) {
  return newestFirst(db, staffActions, f, [
    eqIfGiven(staffActions.memberId, f.memberId),
    f.route === undefined
      ? undefined
      : like(staffActions.route, `${f.route.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`),
  ])
}
