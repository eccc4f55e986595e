import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { preparedText, queryPrepared } from '#server/db/prepared.ts'
import { rightIdsOfCourse } from '#server/modules/catalogue/catalogue.service.ts'
import { eqIfGiven, newestFirst, rowsBy, stampOnce } from '#server/db/rows.ts'
import { entitlements, type EntitlementSource, vipMemberships } from '#server/db/schema/access.ts'

/** An int[] parameter as one text literal: the statement's text stays the same whatever the number of ids. */
const intArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`

/** An entitlement counts from its grant until it is revoked or expires (`expires_at` null: for ever). */
const counts = (now: Date) =>
  sql`${entitlements.revokedAt} is null and (${entitlements.expiresAt} is null or ${entitlements.expiresAt} > ${now.toISOString()}::timestamptz)`

/** `counts` as SQL text for the prepared statements: over entitlements named `e` (or unaliased), at parameter `at`. */
const countsAt = (at: string, e = '') =>
  `${e}revoked_at is null and (${e}expires_at is null or ${e}expires_at > ${at}::timestamptz)`

export interface RightRow {
  courseId: number
  source: EntitlementSource
  expiresAt: Date | null
}

/** `findRights` without VIP or staff: the member's entitlements to some courses that count at `$3`. */
const grantsAmongStatement = preparedText(
  'access_grants_among',
  `select course_id, source, expires_at from entitlements
    where member_id = $1 and course_id = any($2::int[]) and ${countsAt('$3')}`,
)

/**
 * For a statement another module writes as text: whether the member `member` owns the course `course` at `at` (SQL
 * expressions: parameters or the statement's columns, qualified: a bare `id` would name the entitlement's), as a
 * boolean: an entitlement that counts to the course or to a system course containing it (the catalogue's
 * `rightIdsOfCourse`). The one place the rule is written in SQL.
 */
export function ownsCourseSql(member: string, course: string, at: string): string {
  return `exists (select 1 from entitlements own_e where own_e.member_id = ${member}
      and own_e.course_id in (${rightIdsOfCourse(course)}) and ${countsAt(at, 'own_e.')})`
}

/** The courses of `$2` the member `$1` owns at `$3` (`ownsCourseSql`), in one prepared statement. */
const ownedAmongStatement = preparedText(
  'access_owned_among',
  `select u.course_id from unnest($2::int[]) as u(course_id) where ${ownsCourseSql('$1', 'u.course_id', '$3')}`,
)

/** The courses among `courseIds` the member owns now (see `ownedAmongStatement`). */
export async function findOwnedAmong(db: DbOrTx, memberId: number, courseIds: readonly number[], now: Date) {
  const rows = await queryPrepared<{ course_id: number }>(db, ownedAmongStatement, [
    memberId,
    courseIds,
    now.toISOString(),
  ])
  return new Set(rows.map((r) => r.course_id))
}

/**
 * A member's rights that count now, in ONE statement on the (member_id, course_id) index and the VIP primary key:
 * their entitlements to `courseIds`, (with `vip`) the end of a VIP membership still running, and (with `staff`, a
 * condition the members module writes on its roles) whether they may preview any lesson.
 */
export async function findRights(
  db: DbOrTx,
  memberId: number,
  courseIds: readonly number[],
  now: Date,
  vip: boolean,
  staff?: SQL,
): Promise<{ grants: RightRow[]; vipUntil: Date | null; staffPreview: boolean }> {
  const at = now.toISOString()
  type Row = { course_id: number | null; source: string; expires_at: Date | string | null }
  // Entitlements alone (ownership: the favourites page, checkouts) are a prepared statement, built once.
  const rows =
    !vip && !staff
      ? await queryPrepared<Row>(db, grantsAmongStatement, [memberId, courseIds, at])
      : (
          await db.execute<Row>(sql`
    select ${entitlements.courseId} as course_id, ${entitlements.source} as source, ${entitlements.expiresAt} as expires_at
    from ${entitlements}
    where ${entitlements.memberId} = ${memberId} and ${entitlements.courseId} = any(${intArray(courseIds)}) and ${counts(now)}
    ${
      vip
        ? sql`union all
    select null, 'vip_membership', ${vipMemberships.expiresAt} from ${vipMemberships}
    where ${vipMemberships.memberId} = ${memberId} and ${vipMemberships.expiresAt} > ${at}::timestamptz`
        : sql``
    }
    ${staff ? sql`union all select null, 'staff_preview', null where ${staff}` : sql``}`)
        ).rows
  const toDate = (v: Date | string | null) => (v === null ? null : new Date(v))
  const grants: RightRow[] = []
  let vipUntil: Date | null = null
  let staffPreview = false
  for (const r of rows) {
    if (r.source === 'staff_preview') staffPreview = true
    else if (r.course_id === null) vipUntil = toDate(r.expires_at)
    else
      grants.push({
        courseId: Number(r.course_id),
        source: r.source as EntitlementSource,
        expiresAt: toDate(r.expires_at),
      })
  }
  return { grants, vipUntil, staffPreview }
}

/**
 * For a statement another module writes as text (the purchased list, /ke1): every entitlement of the member `member`
 * that counts at `at` (SQL expressions, such as `$1` and `$2`), newest first, and the end of their VIP membership
 * while it runs (the element whose course is null), as one json array of `[course_id, source, granted_at,
 * expires_at]`; `activeRightsFromJson` reads it. On the (member_id, course_id) index and the VIP primary key.
 */
export function activeRightsJsonSql(member: string, at: string): string {
  return `(select coalesce(json_agg(json_build_array(acc_r.course_id, acc_r.source, acc_r.granted_at, acc_r.expires_at)
      order by acc_r.id desc nulls first), '[]')
    from (select acc_e.id, acc_e.course_id, acc_e.source, acc_e.granted_at, acc_e.expires_at from entitlements acc_e
        where acc_e.member_id = ${member} and ${countsAt(at, 'acc_e.')}
      union all
      select null, null, 'vip_membership', null, acc_v.expires_at from vip_memberships acc_v
        where acc_v.member_id = ${member} and acc_v.expires_at > ${at}::timestamptz) acc_r)`
}

interface ActiveGrantRow {
  courseId: number
  source: EntitlementSource
  grantedAt: Date
  expiresAt: Date | null
}

/** `activeRightsJsonSql`'s value: the member's entitlements that count, newest first, and the end of a running VIP. */
export function activeRightsFromJson(value: unknown) {
  const grants: ActiveGrantRow[] = []
  let vipUntil: Date | null = null
  for (const [courseId, source, grantedAt, expiresAt] of value as [number | null, string, string, string | null][]) {
    const expires = expiresAt === null ? null : new Date(expiresAt)
    if (courseId === null) vipUntil = expires
    else
      grants.push({ courseId, source: source as EntitlementSource, grantedAt: new Date(grantedAt), expiresAt: expires })
  }
  return { grants, vipUntil }
}

/** The member's entitlements that count now (to `courseIds` only, when given), newest first. */
export async function findActiveEntitlements(db: DbOrTx, memberId: number, now: Date, courseIds?: readonly number[]) {
  return db
    .select({
      id: entitlements.id,
      courseId: entitlements.courseId,
      source: entitlements.source,
      grantedAt: entitlements.grantedAt,
      expiresAt: entitlements.expiresAt,
    })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.memberId, memberId),
        courseIds === undefined ? undefined : sql`${entitlements.courseId} = any(${intArray(courseIds)})`,
        counts(now),
      ),
    )
    .orderBy(desc(entitlements.id))
}

/** Every entitlement the member was ever given to `courseIds` (revoked and expired ones too), newest first. */
export async function findEntitlementHistory(db: DbOrTx, memberId: number, courseIds: readonly number[]) {
  return db
    .select()
    .from(entitlements)
    .where(and(eq(entitlements.memberId, memberId), sql`${entitlements.courseId} = any(${intArray(courseIds)})`))
    .orderBy(desc(entitlements.id))
    .limit(100)
}

export type EntitlementRow = typeof entitlements.$inferSelect
const entitlementRows = rowsBy(entitlements, entitlements.id)

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
  return entitlementRows.insert(db, row)
}

/** Revokes an entitlement that is not revoked yet; returns it, or null when there is no such id. */
export async function revokeEntitlement(db: DbOrTx, id: number, at: Date) {
  await stampOnce(db, entitlements, 'revokedAt', at, eq(entitlements.id, id))
  return entitlementRows.find(db, id)
}

/** Newest first, `limit` rows with an id below `before` (cursor paging). */
export async function listEntitlements(
  db: DbOrTx,
  filter: { memberId?: number; courseId?: number; before?: number; limit: number },
) {
  return newestFirst(db, entitlements, filter, [
    eqIfGiven(entitlements.memberId, filter.memberId),
    eqIfGiven(entitlements.courseId, filter.courseId),
  ])
}
