import { ownedCourseIds } from '#server/modules/access/access.service.ts'
import { courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { groupCode, type Attempt } from '#server/modules/redeem/redeem.service.ts'
import type { RedeemPreview } from '#shared/api/redeem.ts'
import type { RedeemDeps } from './redeem-deps.ts'

/**
 * GET /redeem_code: what a code gives (course titles and whether the member owns each, or VIP days) and until
 * when, without using it. The same guessing limit and the same refusals as the exchange, so a preview tells a
 * typo, a used or an expired code before the member confirms.
 */
export async function previewRedeemCode(deps: RedeemDeps, who: Attempt, input: string): Promise<RedeemPreview> {
  const { codeId, code } = await deps.codes.admit(deps.db, who, input)
  const now = deps.now()
  const row = await deps.codes.read(deps.db, codeId)
  await deps.codes.check(deps.db, row, who.memberId, now, { serialise: false })
  const { batch } = row
  const [titles, owned] = await Promise.all([
    courseTitlesByIds(deps.db, batch.courseIds),
    ownedCourseIds(deps.db, who.memberId, batch.courseIds, now),
  ])
  return {
    code: groupCode(code),
    batch_name: batch.name,
    courses: batch.courseIds.map((id) => ({ id, title: titles.get(id)?.title ?? '', owned: owned.has(id) })),
    vip_days: batch.vipDays,
    valid_until: batch.validUntil.toISOString(),
  }
}
