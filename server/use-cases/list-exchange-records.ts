import type { DbOrTx } from '#server/db/database.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { memberExchangeRecords } from '#server/modules/exchange/exchange.service.ts'
import { memberPointsExchanges } from '#server/modules/orders/orders.service.ts'
import { type RedeemCodes } from '#server/modules/redeem/redeem.service.ts'
import type { ExchangeRecord, ExchangeRecordPage } from '#shared/api/exchange-records.ts'
import type { ExchangeRecordKind } from '#shared/exchange-record-kinds.ts'

/** Where a page continues: records strictly older than this time (and, at equal times, lower ids). */
interface RecordCursor {
  at: Date
  id: number
}

/** A record with the key it is ordered by (newest first: time, then the source's own id). */
interface SourcedRecord {
  record: ExchangeRecord
  sortAt: Date
  sortId: number
}

/**
 * One way in of the member's exchange record (/order4): its records before the cursor, newest first, at most
 * `limit`. Platform orders (issue 14 §2) add one source to `exchangeRecordSources` and their kind to
 * shared/exchange-record-kinds.ts; the screen shows every kind as it is.
 */
export interface ExchangeRecordSource {
  kind: ExchangeRecordKind
  list(db: DbOrTx, memberId: number, before: RecordCursor | null, limit: number): Promise<SourcedRecord[]>
}

const joinTitles = (ids: number[], titles: Map<number, { title: string }>) =>
  ids.map((id) => `《${titles.get(id)?.title ?? `课程 ${id}`}》`).join('、')

/** Courses exchanged for points (orders paid with points and no money price). */
const pointsSource: ExchangeRecordSource = {
  kind: 'points',
  async list(db, memberId, before, limit) {
    const rows = await memberPointsExchanges(db, memberId, before, limit)
    return rows.map((o) => ({
      sortAt: o.createdAt,
      sortId: o.id,
      record: {
        kind: 'points',
        id: o.orderNo,
        title: o.title,
        detail: `${o.pointsUsed} 积分`,
        at: o.createdAt.toISOString(),
        state: o.state === 'paid' ? 'active' : 'revoked',
        state_note:
          o.state === 'paid'
            ? null
            : o.state === 'pending'
              ? '未完成'
              : o.state === 'closed'
                ? '已关闭'
                : '已退回积分，课程已收回',
        course_id: null,
        link: `/order4/${encodeURIComponent(o.orderNo)}`,
      },
    }))
  },
}

/** Redeem codes used by the member. */
function redeemSource(codes: Pick<RedeemCodes, 'memberUses'>): ExchangeRecordSource {
  return {
    kind: 'redeem',
    async list(db, memberId, before, limit) {
      const rows = await codes.memberUses(db, memberId, before, limit)
      const titles = await courseTitlesByIds(
        db,
        rows.flatMap((r) => r.use.courseIds),
      )
      return rows.map(({ use, batchName }) => ({
        sortAt: use.usedAt,
        sortId: use.id,
        record: {
          kind: 'redeem',
          id: String(use.id),
          title: use.vipDays ? `VIP 会员 ${use.vipDays} 天` : joinTitles(use.courseIds, titles),
          detail: `兑换码 · ${batchName}`,
          at: use.usedAt.toISOString(),
          state: use.revokedAt ? 'revoked' : 'active',
          state_note: use.revokedAt ? '兑换码已被作废，兑换的内容已收回' : null,
          course_id: use.courseIds[0] ?? null,
          link: null,
        },
      }))
    },
  }
}

/** Orders bought on Douyin and the other platforms, exchanged for a course or VIP days (issue 14 §2). */
const platformSource: ExchangeRecordSource = {
  kind: 'exchange',
  async list(db, memberId, before, limit) {
    const rows = await memberExchangeRecords(db, memberId, limit, before)
    return rows.map((r) => ({
      sortAt: new Date(r.granted_at),
      sortId: r.id,
      record: {
        kind: 'exchange',
        id: String(r.id),
        title: r.vip_days ? `VIP 会员 ${r.vip_days} 天` : `《${r.course_title ?? `课程 ${r.course_id}`}》`,
        detail: `${r.platform_name}订单 ${r.order_id} · ${r.product_name}`,
        at: r.granted_at,
        state: r.status === 'revoked' ? 'revoked' : 'active',
        state_note: r.status === 'revoked' ? `已收回：${r.revoke_reason ?? '平台订单已退款'}` : null,
        course_id: r.course_id,
        link: null,
      },
    }))
  },
}

/** Every source of the record, in the order equal times are shown. */
export function exchangeRecordSources(codes: Pick<RedeemCodes, 'memberUses'>): ExchangeRecordSource[] {
  return [platformSource, redeemSource(codes), pointsSource]
}

const encodeCursor = (r: SourcedRecord) => `${r.sortAt.getTime()}_${r.sortId}`
const decodeCursor = (c: string | undefined): RecordCursor | null => {
  const m = /^(\d{13})_(\d{1,10})$/.exec(c ?? '')
  return m ? { at: new Date(Number(m[1])), id: Number(m[2]) } : null
}

/**
 * GET /exchange_records: the member's records of every source, newest first, one page. Each source gives its
 * newest `limit + 1` before the cursor, the pages are merged by time. (Two records of different sources at the
 * very same millisecond may straddle a page boundary out of order; neither is lost unless their ids also tie.)
 */
export async function listExchangeRecords(
  deps: { db: DbOrTx; sources: ExchangeRecordSource[] },
  memberId: number,
  query: { cursor?: string | undefined; limit: number },
): Promise<ExchangeRecordPage> {
  const before = decodeCursor(query.cursor)
  const parts = await Promise.all(deps.sources.map((s) => s.list(deps.db, memberId, before, query.limit + 1)))
  const merged = parts.flat().sort((a, b) => b.sortAt.getTime() - a.sortAt.getTime() || b.sortId - a.sortId)
  const page = merged.slice(0, query.limit)
  return {
    list: page.map((r) => r.record),
    next_cursor: merged.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  }
}
