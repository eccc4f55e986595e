import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { courses, systemCourseItems, videos } from '#server/db/schema/catalogue.ts'
import { entitlements, type EntitlementSource, vipMemberships } from '#server/db/schema/access.ts'
import { members } from '#server/db/schema/members.ts'

/**
 * What decides whether a member may watch a video, in one query: the video's and its course's free flags, the
 * preview length, and whether an entitlement counts now — to the course itself or to a system course that
 * contains it.
 */
export async function findWatchFacts(db: DbOrTx, memberId: number | null, videoId: number, now: Date) {
  const entitled =
    memberId === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (
          select 1 from ${entitlements} e
          where e.member_id = ${memberId}
            and e.revoked_at is null
            and (e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)
            and (e.course_id = ${courses.id}
              or e.course_id in (
                select ${systemCourseItems.systemCourseId} from ${systemCourseItems}
                where ${systemCourseItems.courseId} = ${courses.id}))
        )`
  // VIP (issue 4): a membership running now makes the course's VIP-free flag count.
  const vip =
    memberId === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (
          select 1 from ${vipMemberships} v where v.member_id = ${memberId} and v.expires_at > ${now.toISOString()}::timestamptz
        )`
  const [row] = await db
    .select({
      courseId: courses.id,
      courseFree: courses.isFree,
      videoFree: videos.isFree,
      freeSeconds: videos.freeSeconds,
      entitled,
      vipFree: courses.vipFree,
      vip,
    })
    .from(videos)
    .innerJoin(courses, eq(courses.id, videos.courseId))
    .where(eq(videos.id, videoId))
    .limit(1)
  return row ?? null
}

export type EntitlementRow = typeof entitlements.$inferSelect

export async function insertEntitlement(
  db: DbOrTx,
  row: {
    memberId: number
    courseId: number
    source: EntitlementSource
    sourceRef?: string | null
    grantedAt: Date
    expiresAt: Date | null
  },
) {
  const [inserted] = await db.insert(entitlements).values(row).returning()
  return inserted!
}

/** Revokes an entitlement that is not revoked yet; returns it, or null when there is no such id. */
export async function revokeEntitlement(db: DbOrTx, id: number, at: Date) {
  await db
    .update(entitlements)
    .set({ revokedAt: at })
    .where(and(eq(entitlements.id, id), isNull(entitlements.revokedAt)))
  const [row] = await db.select().from(entitlements).where(eq(entitlements.id, id))
  return row ?? null
}

/** Newest first, `limit` rows with an id below `before` (cursor paging). */
export async function listEntitlements(
  db: DbOrTx,
  filter: { memberId?: number; courseId?: number; before?: number; limit: number },
) {
  return db
    .select()
    .from(entitlements)
    .where(
      and(
        filter.memberId === undefined ? undefined : eq(entitlements.memberId, filter.memberId),
        filter.courseId === undefined ? undefined : eq(entitlements.courseId, filter.courseId),
        filter.before === undefined ? undefined : lt(entitlements.id, filter.before),
      ),
    )
    .orderBy(desc(entitlements.id))
    .limit(filter.limit)
}

export async function memberExists(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: members.id }).from(members).where(eq(members.id, id))
  return Boolean(row)
}

export async function courseExists(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id))
  return Boolean(row)
}
