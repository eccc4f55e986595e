import type { DbOrTx } from '#server/db/database.ts'
import type { EntitlementSource } from '#server/db/schema/access.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { apiFields } from '#server/http/present.ts'
import {
  courseAccessFacts,
  lessonAccessFacts,
  ownershipCoursesInSettlement,
  type CatalogueFacts,
  type CourseFacts,
} from '#server/modules/catalogue/catalogue.service.ts'
import { holdsRoleCondition, memberExists } from '#server/modules/members/members.service.ts'
import { can, StaffRoles } from '#shared/staff/roles.ts'
import {
  decideCourse,
  decideLesson,
  noRights,
  notFound,
  rightCourseIds,
  type AccessAnswer,
  type AccessTarget,
  type MemberRights,
} from './access-rules.ts'
import { extendMembership, findMembership, membershipExpiries, shortenMembership } from './membership.repository.ts'
import {
  findActiveEntitlements,
  activeRightsFromJson,
  activeRightsJsonSql,
  findOwnedAmong,
  findEntitlementHistory,
  findRights,
  insertEntitlement,
  listEntitlements,
  ownsCourseSql,
  revokeEntitlement,
  type EntitlementRow,
} from './access.repository.ts'
import type { StatementPart } from '#server/db/prepared.ts'
import { findHeldPurchaseCourses, insertPurchaseGrants, purchaseGrantPart, revokeGrants } from './grants.repository.ts'
import { pageById } from '#server/http/cursor.ts'

export type { AccessAnswer, AccessTarget, AccessWhy } from './access-rules.ts'

const WatchReasons = {
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
 * The player's narrow view of an access answer (the `until_second` and `reason` the API shows): a free course
 * first, then a free video, then any entitlement or VIP ('entitled'), then the preview.
 */
export function toWatchDecision(answer: AccessAnswer): WatchDecision {
  if (!answer.found) return { allowed: false, until_second: 0, reason: WatchReasons.notFound }
  if (!answer.allowed) return { allowed: false, until_second: 0, reason: WatchReasons.noAccess }
  if (answer.why.includes('free_course')) return { allowed: true, until_second: null, reason: WatchReasons.freeCourse }
  if (answer.why.includes('free_lesson')) return { allowed: true, until_second: null, reason: WatchReasons.freeVideo }
  if (answer.why[0] === 'preview') return { allowed: true, until_second: answer.until, reason: WatchReasons.preview }
  return { allowed: true, until_second: null, reason: WatchReasons.entitled }
}

// ---- The access function ------------------------------------------------------------------------------------

/** The catalogue's facts the access function reads: lessons' and courses'. */
type AccessFacts = Pick<CatalogueFacts, 'lessons' | 'courses'>

/** The catalogue's facts read straight from the database (inside a transaction, or without a cache). */
const uncachedFacts = (db: DbOrTx): AccessFacts => ({
  lessons: (ids) => lessonAccessFacts(db, ids),
  courses: (ids) => courseAccessFacts(db, ids),
})

/** The staff roles whose holders may play any lesson to check it (`media.preview`, shared/staff/roles.ts). */
const PREVIEW_ROLES = StaffRoles.filter((role) => can({ memberId: 0, roles: [role] }, 'media.preview'))

/**
 * The member's rights for these courses in one statement; none for an anonymous visitor. For lessons, the same
 * statement asks the member's roles whether they may preview any lesson (staff), never cached, so a role taken away
 * counts at the next request.
 */
async function rightsFor(
  db: DbOrTx,
  memberId: number | null,
  courses: CourseFacts[],
  now: Date,
  opts: { lessons?: boolean } = {},
): Promise<MemberRights> {
  if (memberId === null || courses.length === 0) return noRights
  // The VIP row matters only when one of the courses is VIP-free.
  return findRights(
    db,
    memberId,
    rightCourseIds(courses),
    now,
    courses.some((c) => c.vipFree),
    opts.lessons ? holdsRoleCondition(memberId, PREVIEW_ROLES) : undefined,
  )
}

async function lessonsAnswer(
  db: DbOrTx,
  facts: AccessFacts,
  memberId: number | null,
  videoIds: readonly number[],
  now: Date,
) {
  const lessons = await facts.lessons(videoIds)
  const courses = [...lessons.values()].map((l) => l.course)
  const rights = await rightsFor(db, memberId, courses, now, { lessons: true })
  return new Map(videoIds.map((id) => [id, lessons.has(id) ? decideLesson(lessons.get(id)!, rights) : notFound]))
}

async function coursesAnswer(
  db: DbOrTx,
  facts: AccessFacts,
  memberId: number | null,
  courseIds: readonly number[],
  now: Date,
) {
  const courses = await facts.courses(courseIds)
  const rights = await rightsFor(db, memberId, [...courses.values()], now)
  return new Map(courseIds.map((id) => [id, courses.has(id) ? decideCourse(courses.get(id)!, rights) : notFound]))
}

async function answer(
  db: DbOrTx,
  facts: AccessFacts,
  memberId: number | null,
  target: AccessTarget,
  now: Date,
): Promise<AccessAnswer> {
  if ('videoId' in target) return (await lessonsAnswer(db, facts, memberId, [target.videoId], now)).get(target.videoId)!
  return (await coursesAnswer(db, facts, memberId, [target.courseId], now)).get(target.courseId)!
}

/**
 * The player's decision for one video. A free course or free lesson needs no look at the member's rights (it
 * takes precedence in the narrow view), which saves the query on every playlist and key request for free videos.
 */
async function watchDecision(
  db: DbOrTx,
  facts: AccessFacts,
  memberId: number | null,
  videoId: number,
  now: Date,
): Promise<WatchDecision> {
  const lesson = (await facts.lessons([videoId])).get(videoId)
  if (!lesson) return toWatchDecision(notFound)
  if (lesson.isFree || lesson.course.isFree) return toWatchDecision(decideLesson(lesson, noRights))
  return toWatchDecision(decideLesson(lesson, await rightsFor(db, memberId, [lesson.course], now, { lessons: true })))
}

/**
 * The one answer to "may this member (null: an anonymous visitor) watch this lesson or course now, why, until
 * which second and until when" (the shape and its table: `AccessAnswer` in access-rules.ts). The catalogue's facts
 * come from its short-lived LRU; the member's rights from one indexed query per call, never cached, so a grant or
 * revocation counts at once. Use the batch forms for pages that show many lessons or courses.
 */
export function createAccessService(deps: { db: DbOrTx; now: () => Date; facts: AccessFacts }) {
  const { db, facts } = deps
  return {
    /** Access to one lesson (`{ videoId }`) or course (`{ courseId }`); `opts.now` for another time than now. */
    access: (memberId: number | null, target: AccessTarget, opts?: { now?: Date }) =>
      answer(db, facts, memberId, target, opts?.now ?? deps.now()),
    /** Access to many courses at once (a list, a course page's system courses): two lookups whatever the count. */
    accessToCourses: (memberId: number | null, courseIds: readonly number[], opts?: { now?: Date }) =>
      coursesAnswer(db, facts, memberId, courseIds, opts?.now ?? deps.now()),
    /** Access to many lessons at once (a course's chapter list): two lookups whatever the count. */
    accessToLessons: (memberId: number | null, videoIds: readonly number[], opts?: { now?: Date }) =>
      lessonsAnswer(db, facts, memberId, videoIds, opts?.now ?? deps.now()),
    /** `canWatch` on the cached facts: what the player, playlists, keys and progress saves ask. */
    canWatch: (memberId: number | null, videoId: number) => watchDecision(db, facts, memberId, videoId, deps.now()),
  }
}

/** `access` without the facts cache: inside a transaction, or where an answer must see an edit made just now. */
export function accessNow(db: DbOrTx, memberId: number | null, target: AccessTarget, now: Date) {
  return answer(db, uncachedFacts(db), memberId, target, now)
}

/**
 * May this member (null: an anonymous visitor) watch this video now, and until which second: the player's narrow
 * view (`toWatchDecision`) of the access function, without the facts cache. A free course or a free video plays in
 * full; so does any entitlement to the course (or to a system course containing it) that is neither revoked nor
 * expired, and a running VIP membership on a VIP-free course; otherwise a video with `free_seconds` > 0 plays until
 * that second; otherwise nothing.
 */
export function canWatch(db: DbOrTx, memberId: number | null, videoId: number, now: Date): Promise<WatchDecision> {
  return watchDecision(db, uncachedFacts(db), memberId, videoId, now)
}

/**
 * The courses of `courseIds` the member owns now, in the purchase sense: an entitlement that counts now (not
 * revoked, not expired) to the course itself or to a system course containing it. A VIP membership does NOT own
 * anything (the checkout, bundle prices and "not owned yet" lists ask this). One indexed statement, uncached, so
 * it can run inside the caller's transaction.
 */
export async function ownedCourseIds(
  db: DbOrTx,
  memberId: number,
  courseIds: readonly number[],
  now: Date,
): Promise<Set<number>> {
  if (courseIds.length === 0) return new Set()
  return findOwnedAmong(db, memberId, [...new Set(courseIds)], now)
}

/**
 * `ownedCourseIds` for a statement another module writes as text over its own rows (the favourites page): whether the
 * member `member` owns the course `course` at `at`, each an SQL expression (a `$n` parameter or a column), as a
 * boolean expression. The same rule, so a list can say what its member owns in the statement that reads it.
 */
export const ownsCourse = ownsCourseSql

/**
 * `ownedCourseIds` for courses whose facts the caller has already read (the checkout reads them with the course
 * for sale): one indexed statement.
 */
export async function ownedAmong(
  db: DbOrTx,
  memberId: number,
  courses: Iterable<Pick<CourseFacts, 'id' | 'systemCourseIds'>>,
  now: Date,
): Promise<Set<number>> {
  const list = [...courses]
  if (list.length === 0) return new Set()
  const { grants } = await findRights(db, memberId, rightCourseIds(list), now, false)
  const granted = new Set(grants.map((g) => g.courseId))
  const owned = new Set<number>()
  for (const c of list) if (granted.has(c.id) || c.systemCourseIds.some((s) => granted.has(s))) owned.add(c.id)
  return owned
}

/**
 * The member's entitlements that count now, the most generous per course (no end beats the latest end; between
 * equals the newest grant wins): what the purchased list shows. `courseIds` limits it to some courses.
 */
export async function activeEntitlementsByCourse(
  db: DbOrTx,
  memberId: number,
  now: Date,
  courseIds?: readonly number[],
) {
  return mostGenerousPerCourse(await findActiveEntitlements(db, memberId, now, courseIds))
}

/** The most generous grant per course of grants newest first: no end beats the latest end; the newest wins a tie. */
function mostGenerousPerCourse(
  grants: Iterable<{ courseId: number; source: EntitlementSource; expiresAt: Date | null; grantedAt: Date }>,
) {
  const best = new Map<number, { source: EntitlementSource; expiresAt: Date | null; grantedAt: Date }>()
  for (const e of grants) {
    const prev = best.get(e.courseId)
    const better = !prev || (prev.expiresAt !== null && (e.expiresAt === null || e.expiresAt > prev.expiresAt))
    if (better) best.set(e.courseId, { source: e.source, expiresAt: e.expiresAt, grantedAt: e.grantedAt })
  }
  return best
}

/**
 * What the purchased list (/ke1) needs of the member's rights, for the learning module's statement that reads it
 * with the member's progress: as SQL text over the member and the time (SQL expressions, such as `$1` and `$2`), a
 * json value that `activeRightsFrom` reads.
 */
export const activeRightsJson = activeRightsJsonSql

/**
 * `activeRightsJson`'s value: the most generous entitlement per course (as `activeEntitlementsByCourse`) and the end
 * of their VIP membership while it runs (null otherwise).
 */
export function activeRightsFrom(value: unknown) {
  const { grants, vipUntil } = activeRightsFromJson(value)
  return { entitled: mostGenerousPerCourse(grants), vipUntil }
}

/**
 * Every entitlement the member was given to these courses, counting or not (revoked, expired), newest first, at most
 * 100: what "why do I have access, why no longer" on the course page explains (server/use-cases/explain-course-access.ts).
 */
export function entitlementHistory(db: DbOrTx, memberId: number, courseIds: readonly number[]) {
  return courseIds.length === 0 ? Promise.resolve([]) : findEntitlementHistory(db, memberId, courseIds)
}

// ---- Entitlements as operators manage them ------------------------------------------------------------------

/** An entitlement as the API shows it. */
function toEntitlementView(row: EntitlementRow, now: Date) {
  return {
    ...apiFields(row, ['id', 'memberId', 'courseId', 'source', 'sourceRef', 'grantedAt', 'expiresAt', 'revokedAt']),
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
    throw new AppError(Codes.NotFound, `会员 ${grant.memberId} 不存在`, { field: 'member_id' })
  if (!(await courseAccessFacts(db, [grant.courseId])).has(grant.courseId))
    throw new AppError(Codes.NotFound, `课程 ${grant.courseId} 不存在`, { field: 'course_id' })
  if (grant.expiresAt && grant.expiresAt <= grant.now)
    throw new AppError(Codes.BadRequest, '到期时间必须晚于现在', { field: 'expires_at' })
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
  if (!row) throw new AppError(Codes.NotFound, `授权 ${id} 不存在`, { field: 'id' })
  return toEntitlementView(row, now)
}

/** Entitlements, newest first, filtered by member and/or course, paged by id. */
export async function listMemberEntitlements(
  db: DbOrTx,
  filter: { memberId?: number; courseId?: number; before?: number; limit: number },
  now: Date,
) {
  const rows = await listEntitlements(db, { ...filter, limit: filter.limit + 1 })
  const { page, nextCursor } = pageById(rows, filter.limit)
  return { list: page.map((r) => toEntitlementView(r, now)), next_cursor: nextCursor }
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

/** When each of these members' VIP ends (or ended); members who never had VIP are not in the map. */
export function vipExpiries(db: DbOrTx, memberIds: number[]): Promise<Map<number, Date>> {
  return membershipExpiries(db, memberIds)
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
 * Revokes what `source`/`sourceRef` granted the member (an order refunded), and only that: every such course, or those
 * of `courseIds`. Returns how many entitlements were revoked; revoking twice revokes nothing the second time.
 */
export function revokeCourses(
  tx: DbOrTx,
  revoke: { memberId: number; source: EntitlementSource; sourceRef: string; courseIds?: number[]; now: Date },
): Promise<number> {
  return revokeGrants(tx, revoke)
}

/** The courses this order (by number) granted and that are not taken back: what a per-course refund may return. */
export function coursesHeldFromOrder(db: DbOrTx, orderNo: string): Promise<Set<number>> {
  return findHeldPurchaseCourses(db, orderNo)
}

/**
 * The same grants as `grantCourses` and `extendVipMembership`, for a paid order, as this module's part of the payment
 * fast path's single statement (orders `settlePendingOrder`). Its guard keeps the rule of `ownedCourseIds`: not when
 * the member owns one of the order's courses (or a system course containing one) already, as the catalogue's part of
 * the statement lists them; that order is paid on the general path, which refunds the owned share.
 */
export function purchaseGrantsInSettlement(at: Date): StatementPart {
  return purchaseGrantPart(at, ownershipCoursesInSettlement())
}

/** A member's rights and VIP (data export, issue 10 §5). */
export { selectMemberAccess as accessForExport } from './access-privacy.repository.ts'
