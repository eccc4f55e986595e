import type { Db, DbOrTx } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { idsOf } from '#server/http/present.ts'
import { memberSearchFilter, memberSummariesByIds } from '#server/modules/members/members.service.ts'
import { beijingDateTime } from '#shared/time.ts'
import { actionList, insertStaffAction, type NewStaffAction, type StaffActionFilter } from './audit.repository.ts'
import type { StaffAction, StaffActionQuery } from './audit.schema.ts'

type ActionRow = Awaited<ReturnType<typeof actionList.page>>[number]

/** The columns of the action log's CSV export. */
const STAFF_ACTION_CSV_HEADER = ['时间', '操作人ID', '操作人', '手机号', '动作', '接口', '结果', '请求号', '内容']

/** The search box: an operator's member id or phone; null when no operator matches. */
async function filterOf(db: DbOrTx, q: StaffActionQuery): Promise<StaffActionFilter | null> {
  return memberSearchFilter(db, q.q?.trim(), { route: q.route })
}

/** Actions with their operators' nickname and phone (the member is kept, no cascade, so every row has one). */
async function withOperators(db: DbOrTx, rows: ActionRow[]): Promise<StaffAction[]> {
  const who = await memberSummariesByIds(db, idsOf(rows, 'memberId'))
  return rows.flatMap((a) => {
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
  })
}

/** The staff action record as the composition root wires it: writes from the audit plugin, reads for admins. */
export function createAuditService(deps: { db: Db }) {
  const { db } = deps
  return {
    /** Records one change an operator made through the staff API (server/http/staff-audit.ts, after the answer). */
    record: (action: NewStaffAction) => insertStaffAction(db, action),

    /** The record by operator and route prefix: a page, or the CSV (STAFF_ACTION_CSV_HEADER) of every match. */
    actions: {
      page: async (q: StaffActionQuery) =>
        listing(actionList, db, q, await filterOf(db, q)).page((rows) => withOperators(db, rows)),
      csv: async (q: StaffActionQuery) =>
        listing(actionList, db, q, await filterOf(db, q)).csv(STAFF_ACTION_CSV_HEADER, async (rows: ActionRow[]) =>
          (await withOperators(db, rows)).map((a) => [
            beijingDateTime(new Date(a.created_at)),
            a.member_id,
            a.nickname,
            a.phone ?? '',
            a.method,
            a.url,
            a.code ?? a.status,
            a.request_id,
            a.body ? JSON.stringify(a.body) : '',
          ]),
        ),
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
