import type { Db, DbOrTx } from '#server/db/database.ts'
import { memberSummariesByIds } from '#server/modules/members/members.service.ts'
import { insertStaffAction, listStaffActions, type NewStaffAction } from './audit.repository.ts'
import type { StaffActionList, StaffActionQuery } from './audit.schema.ts'
import { pageById } from '#server/http/cursor.ts'

/** Records one change an operator made through the staff API (server/http/staff-audit.ts calls it after the answer). */
async function recordStaffAction(db: DbOrTx, action: NewStaffAction) {
  await insertStaffAction(db, action)
}

/** What operators did, newest first, with each operator's nickname and phone; paged by id. */
async function staffActionPage(db: DbOrTx, q: StaffActionQuery): Promise<StaffActionList> {
  const rows = await listStaffActions(db, {
    memberId: q.member_id,
    route: q.route,
    before: q.cursor,
    limit: q.limit + 1,
  })
  const { page, nextCursor } = pageById(rows, q.limit)
  const who = await memberSummariesByIds(
    db,
    page.map((a) => a.memberId),
  )
  return {
    // The action's member is kept (no cascade), so every row has one; a row without is left out as the join did.
    list: page.flatMap((a) => {
      const member = who.get(a.memberId)
      if (!member) return []
      return [
        {
          id: a.id,
          member_id: a.memberId,
          nickname: member.nickname,
          phone: member.phone,
          method: a.method,
          route: a.route,
          url: a.url,
          params: a.params ?? null,
          body: a.body ?? null,
          status: a.status,
          code: a.code,
          request_id: a.requestId,
          created_at: a.createdAt.toISOString(),
        },
      ]
    }),
    next_cursor: nextCursor,
  }
}

/** The staff action record as the composition root wires it: writes from the audit plugin, reads for admins. */
export function createAuditService(deps: { db: Db }) {
  return {
    /** Records one staff change. */
    record: (action: NewStaffAction) => recordStaffAction(deps.db, action),
    /** A page of the record. */
    page: (q: StaffActionQuery) => staffActionPage(deps.db, q),
  }
}

export type AuditService = ReturnType<typeof createAuditService>
