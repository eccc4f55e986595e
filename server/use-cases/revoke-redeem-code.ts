import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { revokeCourses, shortenVipMembership } from '#server/modules/access/access.service.ts'
import { redeemSourceRef } from '#server/modules/redeem/redeem.service.ts'
import type { RedeemDeps } from './redeem-deps.ts'

/**
 * An operator voids a code (POST /api/admin/redeem/codes/:id/revoke): the code grants nothing any more, and each
 * use of it that still counts is revoked with exactly what it granted (its 'redeem' entitlements, its VIP days).
 * Revoking twice changes nothing the second time.
 */
export async function revokeRedeemCode(deps: RedeemDeps, staffId: number, codeId: number) {
  return deps.db.transaction(async (tx) => {
    const now = deps.now()
    const row = await deps.codes.lockIfAny(tx, codeId)
    if (!row) throw new AppError(Codes.NotFound, `兑换码 ${codeId} 不存在`, { field: 'id' })
    const uses = await deps.codes.revoke(tx, codeId, staffId, now)
    let courses = 0
    for (const use of uses) {
      courses += await revokeCourses(tx, {
        memberId: use.memberId,
        source: 'redeem',
        sourceRef: redeemSourceRef(use.id),
        now,
      })
      if (use.vipDays) await shortenVipMembership(tx, use.memberId, use.vipDays, now)
    }
    return { id: codeId, revoked_uses: uses.length, revoked_courses: courses }
  })
}
