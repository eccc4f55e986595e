import { and, count, like } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { orderOf, type ListSort } from '#server/db/list.ts'
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
    f.route === undefined
      ? undefined
      : like(staffActions.route, `${f.route.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}%`),
  )

/** Operators' actions, one page, newest (or oldest) first. */
export async function searchStaffActions(
  db: DbOrTx,
  f: StaffActionFilter,
  sort: ListSort<'created_at'>,
  window: { offset: number; limit: number },
) {
  return db
    .select()
    .from(staffActions)
    .where(where(f))
    .orderBy(...orderOf({ created_at: staffActions.id }, sort, staffActions.id))
    .offset(window.offset)
    .limit(window.limit)
}

export async function countStaffActions(db: DbOrTx, f: StaffActionFilter) {
  const [row] = await db.select({ n: count() }).from(staffActions).where(where(f))
  return row?.n ?? 0
}
