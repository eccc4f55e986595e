import type { DbOrTx } from '#server/db/database.ts'
import { listing, pageOf, pageWindow, parseSort } from '#server/http/admin-list.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { idsOf } from '#server/http/present.ts'
import { memberSummariesByIds } from '#server/modules/members/members.service.ts'
import { RedeemBatchStateNames, type RedeemBatchQuery, type RedeemCodeQuery } from '#shared/api/redeem.ts'
import { beijingDateTime } from '#shared/time.ts'
import { batchGrantText } from './redeem.service.ts'
import type { RedeemBatchRow, RedeemCodeRow } from './redeem.schema.ts'
import {
  batchUsage,
  countBatches,
  countCodes,
  disableBatch,
  findBatch,
  latestUses,
  listBatches,
  listCodes,
  type BatchRow,
  type CodeFilter,
} from './redeem.repository.ts'

function batchState(b: BatchRow, now: Date): RedeemBatchRow['state'] {
  if (b.disabledAt) return 'disabled'
  if (now >= b.validUntil) return 'expired'
  if (now < b.validFrom) return 'scheduled'
  return 'active'
}

function toBatchRow(b: BatchRow, used: number, revoked: number, now: Date): RedeemBatchRow {
  return {
    id: b.id,
    name: b.name,
    grants: batchGrantText(b),
    course_ids: b.courseIds,
    vip_days: b.vipDays,
    code_count: b.codeCount,
    used_codes: used,
    revoked_codes: revoked,
    uses_per_code: b.usesPerCode,
    per_member_limit: b.perMemberLimit,
    valid_from: b.validFrom.toISOString(),
    valid_until: b.validUntil.toISOString(),
    note: b.note,
    state: batchState(b, now),
    created_at: b.createdAt.toISOString(),
  }
}

export const REDEEM_CODES_CSV_HEADER = ['序号', '兑换码', '批次', '可兑换', '有效期起', '有效期至']

/** The columns of the batch list's CSV export (GET /admin/redeem/batches?format=csv): never a code. */
const REDEEM_BATCHES_CSV_HEADER = [
  '批次ID',
  '名称',
  '可兑换',
  '兑换码数',
  '已使用',
  '已作废',
  '每码可用次数',
  '每人限用',
  '有效期起',
  '有效期至',
  '状态',
  '备注',
  '创建时间',
]

/** The rows of a new batch's CSV: the only time its codes are shown. */
export async function* newBatchCsvRows(batch: BatchRow, codes: string[], group: (code: string) => string) {
  const grants = batchGrantText(batch)
  const from = beijingDateTime(batch.validFrom)
  const until = beijingDateTime(batch.validUntil)
  for (let i = 0; i < codes.length; i++) yield [i + 1, group(codes[i]!), batch.name, grants, from, until]
}

/** Batches and their codes for the operators' console (permission `redeem.manage`). */
export function createRedeemAdmin(deps: { db: DbOrTx; now: () => Date; hashOf: (input: string) => string | null }) {
  const { db } = deps
  const batchListing = (q: RedeemBatchQuery) =>
    listing({ page: listBatches, count: countBatches }, db, q, { q: q.q, state: q.state })
  return {
    /** Batches by name / note and state: a page, or the CSV (REDEEM_BATCHES_CSV_HEADER) of every match. */
    batches: {
      page: (q: RedeemBatchQuery) =>
        batchListing(q).page((rows) => {
          const now = deps.now()
          return rows.map((r) => toBatchRow(r.batch, r.usedCodes, r.revokedCodes, now))
        }),
      csv: (q: RedeemBatchQuery) =>
        batchListing(q).csv(REDEEM_BATCHES_CSV_HEADER, (rows) => {
          const now = deps.now()
          return rows.map(({ batch: b, usedCodes, revokedCodes }) => [
            b.id,
            b.name,
            batchGrantText(b),
            b.codeCount,
            usedCodes,
            revokedCodes,
            b.usesPerCode,
            b.perMemberLimit,
            beijingDateTime(b.validFrom),
            beijingDateTime(b.validUntil),
            RedeemBatchStateNames[batchState(b, now)],
            b.note,
            beijingDateTime(b.createdAt),
          ])
        }),
    },

    async disable(id: number) {
      const row = await disableBatch(db, id, deps.now())
      if (!row) throw new AppError(Codes.NotFound, `批次 ${id} 不存在`, { field: 'id' })
      const usage = await batchUsage(db, id)
      return toBatchRow(row, usage.used, usage.revoked, deps.now())
    },

    async codes(batchId: number, q: RedeemCodeQuery) {
      if (!(await findBatch(db, batchId))) throw new AppError(Codes.NotFound, `批次 ${batchId} 不存在`, { field: 'id' })
      const filter: CodeFilter = { batchId, state: q.state }
      if (q.code) {
        const hash = deps.hashOf(q.code)
        // A code that is not well formed matches nothing (rather than every code).
        filter.hash = hash ?? '-'
      }
      const [rows, total] = await Promise.all([
        listCodes(db, filter, parseSort(q.sort).desc, pageWindow(q)),
        countCodes(db, filter),
      ])
      const uses = await latestUses(db, idsOf(rows, 'id'))
      const people = await memberSummariesByIds(
        db,
        [...uses.values()].map((u) => u.memberId),
      )
      return pageOf(
        rows.map((r): RedeemCodeRow => {
          const use = uses.get(r.id)
          const who = use && people.get(use.memberId)
          return {
            id: r.id,
            serial: r.serial,
            state: r.revokedAt ? 'revoked' : r.uses > 0 ? 'used' : 'unused',
            uses: r.uses,
            member_id: use?.memberId ?? null,
            member: who ? `${who.nickname}${who.phone ? `（${who.phone}）` : ''}` : null,
            used_at: use?.usedAt.toISOString() ?? null,
          }
        }),
        total,
        q,
      )
    },
  }
}

export type RedeemAdmin = ReturnType<typeof createRedeemAdmin>
