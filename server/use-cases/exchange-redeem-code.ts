import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { extendVipMembership, grantEntitlement, ownedCourseIds } from '#server/modules/access/access.service.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { redeemSourceRef, type Attempt } from '#server/modules/redeem/redeem.service.ts'
import type { RedeemResult } from '#shared/api/redeem.ts'
import type { RedeemDeps } from './redeem-deps.ts'

/**
 * POST /redeem_code/exchange: uses a code. The code is read under the guessing limit (outside the transaction, so
 * a wrong guess stays counted), then, in one transaction, its row is locked (twenty members with one single-use
 * code queue here and one gets it), its rules checked, the use recorded and its courses granted through the access
 * module (source 'redeem', source_ref `redeem:<use id>`) or its VIP days added. Courses the member owns already are
 * not granted again; when they own all of the batch's courses the code is not used at all.
 */
export async function exchangeRedeemCode(deps: RedeemDeps, who: Attempt, input: string): Promise<RedeemResult> {
  const { codeId } = await deps.codes.admit(deps.db, who, input)
  return deps.db.transaction(async (tx) => {
    const now = deps.now()
    const row = await deps.codes.lock(tx, codeId)
    await deps.codes.check(tx, row, who.memberId, now, { serialise: true })
    const { batch } = row
    const titles = await courseTitlesByIds(tx, batch.courseIds)
    let courseIds: number[] = []
    if (batch.courseIds.length) {
      const owned = await ownedCourseIds(tx, who.memberId, batch.courseIds, now)
      courseIds = batch.courseIds.filter((id) => !owned.has(id))
      if (courseIds.length === 0) {
        const names = batch.courseIds.map((id) => `《${titles.get(id)?.title ?? id}》`).join('、')
        throw new AppError(Codes.RedeemAlreadyOwned, `你已拥有${names}，无需兑换，这个兑换码没有被使用`)
      }
    }
    const use = await deps.codes.recordUse(tx, {
      codeId,
      batchId: batch.id,
      memberId: who.memberId,
      courseIds,
      vipDays: batch.vipDays,
      now,
    })
    for (const courseId of courseIds)
      await grantEntitlement(tx, {
        memberId: who.memberId,
        courseId,
        source: 'redeem',
        sourceRef: redeemSourceRef(use.id),
        expiresAt: null,
        now,
      })
    const vipUntil = batch.vipDays ? await extendVipMembership(tx, who.memberId, batch.vipDays, now) : null
    return {
      courses: courseIds.map((id) => ({ id, title: titles.get(id)?.title ?? '' })),
      vip_days: batch.vipDays,
      vip_expires_at: vipUntil?.toISOString() ?? null,
    }
  })
}
