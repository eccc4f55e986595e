import type { Db } from '#server/db/database.ts'
import { listing } from '#server/http/admin-list.ts'
import { idsOf } from '#server/http/present.ts'
import { memberSummariesByIds } from '#server/modules/members/members.service.ts'
import { ordersByIds } from '#server/modules/orders/orders.service.ts'
import type { PointLedgerQuery } from '#shared/api/admin-points.ts'
import { PointReasonNames } from '#shared/point-reasons.ts'
import { beijingDateTime, beijingDayFromText } from '#shared/time.ts'
import { ledgerList, type LedgerFilter } from './points.repository.ts'

/** The columns of the ledger CSV export. */
const LEDGER_CSV_HEADER = [
  '流水ID',
  '会员ID',
  '手机号',
  '变动',
  '变动后余额',
  '类型',
  '订单号',
  '原因',
  '操作人',
  '时间',
]

type EntryRow = Awaited<ReturnType<typeof ledgerList.page>>[number]
type Summaries = Awaited<ReturnType<typeof memberSummariesByIds>>

/** Payment providers that move points on their own (an order paid or refunded through them). */
const PROVIDER_NAMES: Record<string, string> = { wechat: '微信支付', alipay: '支付宝' }

/** The member an actor names ("admin:12", "member:3"), for the one lookup of a page's names. */
function actorMemberId(actor: string): number | null {
  const m = /^(?:admin|member):(\d+)$/.exec(actor)
  return m ? Number(m[1]) : null
}

/**
 * Who made a change, as an operator reads it: 系统, 学员本人 (the member themselves), another member's nickname
 * (a merge), 微信支付 / 支付宝, or the staff member's name; an actor this does not know shows as stored.
 */
function actorName(e: EntryRow, who: Summaries): string {
  if (e.actor === 'system') return '系统'
  const [kind, id = ''] = e.actor.split(':')
  if (kind === 'provider') return PROVIDER_NAMES[id] ?? id
  const memberId = actorMemberId(e.actor)
  if (memberId === null) return e.actor
  if (kind === 'member' && memberId === e.memberId) return '学员本人'
  const nickname = who.get(memberId)?.nickname
  if (kind === 'admin') return nickname ? `${nickname}（员工）` : `员工 ${memberId}`
  return nickname ?? `学员 ${memberId}`
}

/** A ledger entry as the member's ledger (GET /points) and the console's both show it; `orders` by id. */
export function entryView(e: EntryRow, orders: Awaited<ReturnType<typeof ordersByIds>>) {
  return {
    id: e.id,
    delta: e.delta,
    balance_after: e.balanceAfter,
    reason: e.reason,
    order_no: e.orderId === null ? null : (orders.get(e.orderId)?.orderNo ?? null),
    note: e.note,
    /** Who made the change ("system", "admin:100002"): staff see it, members' answers leave it out. */
    actor: e.actor,
    created_at: e.createdAt.toISOString(),
  }
}

/** Every member's points ledger for the operators' console: a console list with CSV. */
export function createPointLedgerAdmin(deps: { db: Db }) {
  const { db } = deps

  const filterOf = (q: PointLedgerQuery): LedgerFilter => ({
    memberId: q.member_id,
    reason: q.reason,
    from: q.from ? beijingDayFromText(q.from) : undefined,
    before: q.to ? beijingDayFromText(q.to, 1) : undefined,
  })

  async function rows(entries: EntryRow[]) {
    // The entries' members and the actors they name, in one lookup.
    const actors = entries.flatMap((e) => actorMemberId(e.actor) ?? [])
    const [who, orders] = await Promise.all([
      memberSummariesByIds(db, [...idsOf(entries, 'memberId'), ...actors]),
      ordersByIds(db, idsOf(entries, 'orderId')),
    ])
    return entries.map((e) => ({
      ...entryView(e, orders),
      member_id: e.memberId,
      phone: who.get(e.memberId)?.phone ?? null,
      nickname: who.get(e.memberId)?.nickname ?? '',
      actor_name: actorName(e, who),
    }))
  }

  const entries = (q: PointLedgerQuery) => listing(ledgerList, db, q, filterOf(q))

  // The service is the console list itself (ConsoleList: a page, or every match as CSV).
  return {
    /** One page of ledger entries, newest first by default. */
    page: (q: PointLedgerQuery) => entries(q).page(rows),

    /** The same filter as CSV rows (LEDGER_CSV_HEADER), for `csvRows`. */
    csv: (q: PointLedgerQuery) =>
      entries(q).csv(LEDGER_CSV_HEADER, async (page) =>
        (await rows(page)).map((e) => [
          e.id,
          e.member_id,
          e.phone ?? '',
          e.delta,
          e.balance_after,
          PointReasonNames[e.reason],
          e.order_no ?? '',
          e.note ?? '',
          e.actor_name,
          beijingDateTime(new Date(e.created_at)),
        ]),
      ),
  }
}

export type PointLedgerAdmin = ReturnType<typeof createPointLedgerAdmin>
