import { and } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { startsWithText, tableList } from '#server/db/list.ts'
import { eqIfGiven } from '#server/db/rows.ts'
import { staffActions } from '#server/db/schema/audit.ts'

export type NewStaffAction = typeof staffActions.$inferInsert

export async function insertStaffAction(db: DbOrTx, row: NewStaffAction) {
  await db.insert(staffActions).values(row)
}

export interface StaffActionFilter {
  memberId?: number
  /** A route prefix ("/api/admin/refunds"). */
  route?: string
}

const where = (f: StaffActionFilter) =>
  and(
    eqIfGiven(staffActions.memberId, f.memberId),
    f.route === undefined ? undefined : startsWithText(staffActions.route, f.route),
  )

/** Operators' actions, one page, newest (or oldest) first, and how many the filter matches. */
export const actionList = tableList(staffActions, where, {
  created_at: staffActions.id,
})
