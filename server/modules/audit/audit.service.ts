import type { Db, DbOrTx } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberSearchFilter, memberSummariesByIds } from '#server/modules/members/members.service.ts'
import { refundsByNos } from '#server/modules/refunds/refunds.service.ts'
import { beijingDateTime } from '#shared/time.ts'
import { actionDetails, referencedIds } from './action-details.ts'
import { actionName } from './action-names.ts'
import { actionList, insertStaffAction, type NewStaffAction, type StaffActionFilter } from './audit.repository.ts'
import type { StaffAction, StaffActionQuery } from './audit.schema.ts'

type ActionRow = Awaited<ReturnType<typeof actionList.page>>[number]

/** The columns of the action log's CSV export. */
const STAFF_ACTION_CSV_HEADER = [
  '时间',
  '操作人ID',
  '操作人',
  '手机号',
  '操作',
  '内容',
  '结果',
  '接口',
  '请求号',
  '提交的数据',
]

/** The code table's messages by code: how a refused action ended, in words (没有权限, 此操作需要短信验证…). */
const CODE_MESSAGES = new Map<number, string>(Object.values(Codes).map((c) => [c.code, c.msg]))

/** How an action ended: 成功, or 失败 with the code table's words for its code (or the bare code). */
function resultOf(a: ActionRow) {
  if (a.code === 200) return '成功'
  const code = a.code ?? a.status
  const msg = CODE_MESSAGES.get(code)
  return msg ? `失败：${msg}` : `失败（${code}）`
}

/** The search box: an operator's member id or phone; null when no operator matches. */
async function filterOf(db: DbOrTx, q: StaffActionQuery): Promise<StaffActionFilter | null> {
  return memberSearchFilter(db, q.q?.trim(), { route: q.route })
}

/**
 * Actions with their operators' nickname and phone (the member is kept, no cascade, so every row has one), each
 * named and described: the courses and refunds the page names, then its operators and members (a refund's too),
 * three queries a page whatever its length.
 */
async function withOperators(db: DbOrTx, rows: ActionRow[]): Promise<StaffAction[]> {
  const named = referencedIds(rows)
  const [courses, refunds] = await Promise.all([courseTitlesByIds(db, named.courses), refundsByNos(db, named.refunds)])
  const refundMembers = [...refunds.values()].map((r) => r.memberId)
  const who = await memberSummariesByIds(db, [...idsOf(rows, 'memberId'), ...named.members, ...refundMembers])
  const names = { members: who, courses, refunds }
  return rows.flatMap((a) => {
    const member = who.get(a.memberId)
    if (!member) return []
    return [
      {
        id: a.id,
        member_id: a.memberId,
        nickname: member.nickname,
        phone: member.phone,
        action: actionName(a.method, a.route, a.body) ?? `${a.method} ${a.route}`,
        details: actionDetails(a, names),
        result: resultOf(a),
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
            a.action,
            a.details,
            a.result,
            `${a.method} ${a.url}`,
            a.request_id,
            a.body ? JSON.stringify(a.body) : '',
          ]),
        ),
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
