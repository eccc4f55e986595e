import type { DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { entitlementHistory, findVipMembership } from '#server/modules/access/access.service.ts'
import type { CourseAccessWhy } from '#shared/api/access-why.ts'
import { courseAccessFacts, courseTitlesByIds } from '#server/modules/catalogue/catalogue.service.ts'
import { exchangeRecordsByRefs } from '#server/modules/exchange/exchange.service.ts'
import { redeemUsesByRefs } from '#server/modules/redeem/redeem.service.ts'
import { beijingMinute } from '#shared/time.ts'

type Grant = CourseAccessWhy['grants'][number]
type Ended = CourseAccessWhy['ended'][number]

/** How each source is named on the course page (an exchange names its platform instead). */
const SourceLabels: Record<string, string> = {
  purchase: '购买课程',
  redeem: '通过兑换码获得',
  exchange: '平台订单兑换',
  admin: '工作人员开通',
  vip: 'VIP 会员赠送',
  unlock: '学费 / 班级解锁',
}

/** Why a revoked entitlement of this source no longer counts, when its own record does not say. */
const RevokedReasons: Record<string, string> = {
  purchase: '订单已退款，课程已收回',
  redeem: '兑换码已被作废，课程已收回',
  exchange: '平台订单已退款，课程已收回',
  admin: '工作人员已收回',
}

/**
 * GET /api/course/access/why: which grants give the member this course now, and which no longer do and why — each
 * entitlement (to the course or to a system course containing it) with what it came from (the order, the redeem
 * code's batch, the platform order), a running or ended VIP membership on a VIP-free course, a free course. The
 * access module's entitlements decide; the exchange and redeem modules say what their grants were and why they
 * were taken back (a platform refund, a revoked code). NotFound for an unknown course.
 */
export async function explainCourseAccess(
  deps: { db: DbOrTx; now: () => Date },
  memberId: number,
  courseId: number,
): Promise<CourseAccessWhy> {
  const { db } = deps
  const now = deps.now()
  const course = (await courseAccessFacts(db, [courseId])).get(courseId)
  if (!course || course.status === 'draft') throw new AppError(Codes.NotFound, '课程不存在')
  const rows = await entitlementHistory(db, memberId, [courseId, ...course.systemCourseIds])
  const refs = rows.flatMap((r) => (r.sourceRef ? [r.sourceRef] : []))
  const [exchanges, redeems, systems, vip] = await Promise.all([
    exchangeRecordsByRefs(db, rows.some((r) => r.source === 'exchange') ? refs : []),
    redeemUsesByRefs(db, rows.some((r) => r.source === 'redeem') ? refs : []),
    courseTitlesByIds(db, course.systemCourseIds),
    course.vipFree ? findVipMembership(db, memberId) : null,
  ])

  const grants: Grant[] = []
  const ended: Ended[] = []
  if (course.isFree)
    grants.push({ source: 'free_course', label: '免费课程', detail: null, granted_at: null, expires_at: null })
  for (const e of rows) {
    const ref = e.sourceRef ?? ''
    const record = e.source === 'exchange' ? exchanges.get(ref) : undefined
    const use = e.source === 'redeem' ? redeems.get(ref) : undefined
    const label = record ? `${record.platformName}兑换` : (SourceLabels[e.source] ?? '获得授权')
    const parts = [
      e.source === 'purchase' && ref ? `订单 ${ref}` : null,
      record ? `订单 ${record.orderId}` : null,
      use ? `兑换码 · ${use.batchName}` : null,
      e.courseId !== courseId ? `随体系课《${systems.get(e.courseId)?.title ?? e.courseId}》获得` : null,
    ].filter((p) => p !== null)
    const reason = { source: e.source, label, detail: parts.length > 0 ? parts.join(' · ') : null }
    if (e.revokedAt) {
      const why = record?.revokeReason ?? RevokedReasons[e.source] ?? '授权已收回'
      ended.push({ ...reason, kind: 'revoked', ended_at: e.revokedAt.toISOString(), reason: why })
    } else if (e.expiresAt && e.expiresAt <= now) {
      ended.push({
        ...reason,
        kind: 'expired',
        ended_at: e.expiresAt.toISOString(),
        reason: `有效期已于 ${beijingMinute(e.expiresAt)} 结束`,
      })
    } else {
      grants.push({
        ...reason,
        granted_at: e.grantedAt.toISOString(),
        expires_at: e.expiresAt?.toISOString() ?? null,
      })
    }
  }
  if (vip) {
    const vipReason = { source: 'vip_membership', label: '会员免费', detail: '本课程 VIP 会员免费学' }
    if (vip.expiresAt > now) grants.push({ ...vipReason, granted_at: null, expires_at: vip.expiresAt.toISOString() })
    else ended.push({ ...vipReason, kind: 'expired', ended_at: vip.expiresAt.toISOString(), reason: 'VIP 会员已到期' })
  }
  ended.sort((a, b) => b.ended_at.localeCompare(a.ended_at))
  return { course_id: courseId, allowed: grants.length > 0, grants, ended }
}
