import type { DbOrTx } from '#server/db/database.ts'
import type { EntitlementSource } from '#server/db/schema/access.ts'
import { AppError } from '#server/http/app-error.ts'
import { extendMembership, findMembership, shortenMembership } from './membership.repository.ts'
import { Codes } from '#server/http/codes.ts'
import {
  courseExists,
  findWatchFacts,
  insertEntitlement,
  listEntitlements,
  memberExists,
  revokeEntitlement,
  type EntitlementRow,
} from './access.repository.ts'
// Purchases (end of file).
import type { StatementPart } from '#server/db/prepared.ts'
import { insertPurchaseGrants, purchaseGrantPart, revokeGrants } from './grants.repository.ts'
import { findOwnedCourseIds } from './owned-courses.repository.ts'

export const WatchReasons = {
  /** The course is free for everyone. */
  freeCourse: 'free_course',
  /** This video is free for everyone (a free lesson of a paid course). */
  freeVideo: 'free_video',
  /** The member holds an entitlement that counts now, or a running VIP membership and the course is VIP-free. */
  entitled: 'entitled',
  /** No access, but the first `until_second` seconds are a free preview. */
  preview: 'preview',
  noAccess: 'no_access',
  notFound: 'not_found',
} as const

export type WatchReason = (typeof WatchReasons)[keyof typeof WatchReasons]

export type WatchDecision =
  | {
      /** Something may be played: the whole video, or its preview. */
      allowed: true
      /** Null: to the end. A number: playing stops at this second (the preview). */
      until_second: number | null
      reason: 'free_course' | 'free_video' | 'entitled' | 'preview'
    }
  | { allowed: false; until_second: 0; reason: 'no_access' | 'not_found' }

/**
 * The one answer to "may this member (null: an anonymous visitor) watch this video now, and until which second".
 * A free course or a free video plays in full; so does any entitlement to the course (or to a system course
 * containing it) that is neither revoked nor expired; otherwise a video with `free_seconds` > 0 plays until that
 * second; otherwise nothing. A VIP-free course plays in full while the member's VIP membership runs (issue 4).
 * The API, the playlist, segment and key endpoints and the pages all ask this.
 */
export async function canWatch(
  db: DbOrTx,
  memberId: number | null,
  videoId: number,
  now: Date,
): Promise<WatchDecision> {
  const facts = await findWatchFacts(db, memberId, videoId, now)
  if (!facts) return { allowed: false, until_second: 0, reason: WatchReasons.notFound }
  if (facts.courseFree) return { allowed: true, until_second: null, reason: WatchReasons.freeCourse }
  if (facts.videoFree) return { allowed: true, until_second: null, reason: WatchReasons.freeVideo }
  if (facts.entitled) return { allowed: true, until_second: null, reason: WatchReasons.entitled }
  // A running VIP membership opens VIP-free courses. It answers 'entitled' so every consumer's schema holds.
  if (facts.vipFree && facts.vip) return { allowed: true, until_second: null, reason: WatchReasons.entitled }
  if (facts.freeSeconds > 0) return { allowed: true, until_second: facts.freeSeconds, reason: WatchReasons.preview }
  return { allowed: false, until_second: 0, reason: WatchReasons.noAccess }
}

/** An entitlement as the API shows it. */
export function toEntitlementView(row: EntitlementRow, now: Date) {
  return {
    id: row.id,
    member_id: row.memberId,
    course_id: row.courseId,
    source: row.source,
    source_ref: row.sourceRef,
    granted_at: row.grantedAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    active: row.revokedAt === null && (row.expiresAt === null || row.expiresAt > now),
  }
}

/**
 * Grants a member the right to watch a whole course, from `source` (an operator now; purchases, VIP and redeem
 * codes later), for ever or until `expiresAt`. NotFound names an unknown member or course.
 */
export async function grantEntitlement(
  db: DbOrTx,
  grant: {
    memberId: number
    courseId: number
    source: EntitlementSource
    sourceRef?: string | null
    expiresAt: Date | null
    now: Date
  },
) {
  if (!(await memberExists(db, grant.memberId)))
    throw new AppError(Codes.NotFound, `会员 ${grant.memberId} 不存在（member_id）`)
  if (!(await courseExists(db, grant.courseId)))
    throw new AppError(Codes.NotFound, `课程 ${grant.courseId} 不存在（course_id）`)
  if (grant.expiresAt && grant.expiresAt <= grant.now)
    throw new AppError(Codes.BadRequest, '到期时间必须晚于现在（expires_at）')
  const row = await insertEntitlement(db, {
    memberId: grant.memberId,
    courseId: grant.courseId,
    source: grant.source,
    sourceRef: grant.sourceRef ?? null,
    grantedAt: grant.now,
    expiresAt: grant.expiresAt,
  })
  return toEntitlementView(row, grant.now)
}

/** Revokes an entitlement at once (revoking twice keeps the first time). NotFound for an unknown id. */
export async function revokeEntitlementById(db: DbOrTx, id: number, now: Date) {
  const row = await revokeEntitlement(db, id, now)
  if (!row) throw new AppError(Codes.NotFound, `授权 ${id} 不存在（id）`)
  return toEntitlementView(row, now)
}

/** Entitlements, newest first, filtered by member and/or course, paged by id. */
export async function listMemberEntitlements(
  db: DbOrTx,
  filter: { memberId?: number; courseId?: number; before?: number; limit: number },
  now: Date,
) {
  const rows = await listEntitlements(db, { ...filter, limit: filter.limit + 1 })
  const page = rows.slice(0, filter.limit)
  return {
    list: page.map((r) => toEntitlementView(r, now)),
    next_cursor: rows.length > filter.limit ? page[page.length - 1]!.id : null,
  }
}

// ---- VIP membership: a member-wide pass that opens every VIP-free course while it runs ----------------------

/**
 * Adds `days` to a member's VIP from max(now, current expiry), in one statement (two payments at once both
 * count). Returns the new expiry. Called inside the transaction that marks a VIP order paid.
 */
export function extendVipMembership(tx: DbOrTx, memberId: number, days: number, now: Date): Promise<Date> {
  return extendMembership(tx, memberId, days, now)
}

/** Takes `days` back (a refunded VIP order). Returns the new expiry, or null when the member never had VIP. */
export function shortenVipMembership(tx: DbOrTx, memberId: number, days: number, now: Date): Promise<Date | null> {
  return shortenMembership(tx, memberId, days, now)
}

/** The member's VIP row (expiry and last change), or null when they never had VIP. */
export function findVipMembership(db: DbOrTx, memberId: number) {
  return findMembership(db, memberId)
}

// ---- Purchases: grants and revocations made by orders ----------------------------------------------------------

/**
 * Grants a member these courses for good, from a purchase (`sourceRef` the order number), in one statement. Each
 * course is granted once per order whatever replays or crashes do (unique index `entitlements_purchase_key`).
 * Returns how many entitlements were added. Runs inside the transaction that marks the order paid.
 */
export function grantCourses(
  tx: DbOrTx,
  grant: { memberId: number; courseIds: number[]; source: 'purchase'; sourceRef: string; now: Date },
): Promise<number> {
  return insertPurchaseGrants(tx, grant)
}

/**
 * Revokes what `source`/`sourceRef` granted (an order refunded), and only that: every such course, or those of
 * `courseIds`. Returns how many entitlements were revoked; revoking twice revokes nothing the second time.
 */
export function revokeCourses(
  tx: DbOrTx,
  revoke: { source: EntitlementSource; sourceRef: string; courseIds?: number[]; now: Date },
): Promise<number> {
  return revokeGrants(tx, revoke)
}

/**
 * The same grants as `grantCourses` and `extendVipMembership`, for a paid order, as this module's part of the payment
 * fast path's single statement (orders `settlePendingOrder`).
 */
export function purchaseGrantsInSettlement(at: Date): StatementPart {
  return purchaseGrantPart(at)
}

/**
 * Which of `courseIds` the member owns now: an entitlement that counts now to the course itself or to a system
 * course containing it (the rule `canWatch` applies). One statement.
 * TEMPORARY copy (commerce branch, owned-courses.repository.ts): the access branch provides this function with this
 * signature; drop this one at merge.
 */
export async function ownedCourseIds(
  db: DbOrTx,
  memberId: number,
  courseIds: number[],
  now: Date,
): Promise<Set<number>> {
  return new Set(await findOwnedCourseIds(db, memberId, courseIds, now))
}
