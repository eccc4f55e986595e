import type { Db, DbOrTx } from '#server/db/database.ts'
import type { BusinessEvents } from '#server/http/business-events.ts'
import { revokeCourses, shortenVipMembership } from '#server/modules/access/access.service.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { PlatformAdapters } from '#server/integrations/platforms/platform.ts'
import {
  exchangeRecord,
  exchangeSourceRef,
  revokeOrder,
  revokeRecord,
  type ExchangeRecordRow,
} from '#server/modules/exchange/exchange.service.ts'
import type { Platform } from '#shared/exchange-platforms.ts'

export interface RevokeDeps {
  db: Db
  now: () => Date
  events?: Pick<BusinessEvents, 'emit'>
}

/** Takes back exactly what these exchange records granted: their courses (source 'exchange'), their VIP days. */
async function takeBackGrants(tx: DbOrTx, records: ExchangeRecordRow[], now: Date) {
  for (const r of records) {
    if (r.courseId !== null)
      await revokeCourses(tx, { memberId: r.memberId, source: 'exchange', sourceRef: exchangeSourceRef(r), now })
    if (r.vipDays) await shortenVipMembership(tx, r.memberId, r.vipDays, now)
  }
}

/**
 * A platform refunded or cancelled an order (its push, or the sync job): the records of those lines (every line
 * when `lineIds` is null) are marked revoked with the reason, and exactly what they granted is taken back, in the
 * caller's transaction. Revoking twice revokes nothing the second time. Returns the records revoked.
 */
export async function revokePlatformOrderIn(
  tx: DbOrTx,
  r: { platform: Platform; orderId: string; lineIds: string[] | null; reason: string; now: Date },
) {
  const revoked = await revokeOrder(tx, r)
  await takeBackGrants(tx, revoked, r.now)
  return revoked
}

/** Within this long of the verify, Douyin lets a voucher's verification be cancelled (its docs: "撤销核销"). */
const UNDO_WINDOW_MS = 3600_000

/**
 * An operator takes back what one exchange granted, with a reason (POST /api/admin/exchange/records/:id/revoke).
 * A Douyin voucher verified less than an hour ago is given back to the buyer at Douyin too (certificate cancel).
 */
export async function revokeExchangeRecord(
  deps: RevokeDeps & { adapters: PlatformAdapters },
  id: number,
  reason: string,
) {
  const now = deps.now()
  const revoked = await deps.db.transaction(async (tx) => {
    const r = await revokeRecord(tx, id, reason, now)
    if (r) await takeBackGrants(tx, [r], now)
    return r
  })
  if (!revoked) {
    if (!(await exchangeRecord(deps.db, id)))
      throw new AppError(Codes.NotFound, `兑换记录 ${id} 不存在`, { field: 'id' })
    return { revoked: 0, voucher_returned: false }
  }
  deps.events?.emit({
    event: 'access.revoked',
    member_id: revoked.memberId,
    source: 'exchange',
    ref: exchangeSourceRef(revoked),
    reason,
  })
  const adapter = deps.adapters[revoked.platform]
  const canUndo =
    revoked.redeemRef && adapter?.undoRedeem && now.getTime() - revoked.grantedAt.getTime() < UNDO_WINDOW_MS
  const returned = canUndo
    ? await adapter.undoRedeem!([{ lineId: revoked.lineId, redeemRef: revoked.redeemRef! }]).catch(() => false)
    : false
  return { revoked: 1, voucher_returned: returned }
}
