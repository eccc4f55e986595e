import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { stampOnce } from '#server/db/rows.ts'
import { executePrepared, type StatementPart } from '#server/db/prepared.ts'
import { entitlements, entitlementSources, type EntitlementSource, vipMemberships } from '#server/db/schema/access.ts'

// Entitlements that orders give and take back (source 'purchase', source_ref the order number).

/**
 * Grants each course once per order: the unique index `entitlements_purchase_key` on (source_ref, course_id) for
 * source 'purchase' makes a second grant for the same order a no-op. One prepared statement (it is on the payment
 * path). Returns how many rows were added.
 */
export async function insertPurchaseGrants(
  db: DbOrTx,
  g: { memberId: number; courseIds: number[]; sourceRef: string; now: Date },
) {
  if (g.courseIds.length === 0) return 0
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_insert_purchase_grants',
    sql`
    insert into ${entitlements} (member_id, course_id, source, source_ref, granted_at, expires_at)
    select ${g.memberId}::int, c.id, 'purchase', ${g.sourceRef}, ${g.now.toISOString()}::timestamptz, null
    from unnest(${sql.param(g.courseIds)}::int[]) with ordinality as c(id, n)
    order by c.n
    on conflict (source_ref, course_id) where source = 'purchase' do nothing
    returning id`,
  )
  return rows.length
}

/**
 * `source = '<source>'` written out, not a parameter: the app's plans are generic (server/db/database.ts), and a
 * generic plan uses the partial indexes on `source_ref` (entitlements_purchase_key, entitlements_tuition_key) only
 * when their predicate is a literal in the text. The value is one of `entitlementSources`, never a caller's text.
 */
function sourceIs(source: EntitlementSource) {
  if (!entitlementSources.includes(source)) throw new Error(`unknown entitlement source ${String(source)}`)
  return sql`${entitlements.source} = ${sql.raw(`'${source}'`)}`
}

/** The courses an order granted (source 'purchase', `sourceRef` its number) that are not revoked. */
export async function findHeldPurchaseCourses(db: DbOrTx, sourceRef: string) {
  const rows = await db
    .select({ courseId: entitlements.courseId })
    .from(entitlements)
    .where(and(sourceIs('purchase'), eq(entitlements.sourceRef, sourceRef), isNull(entitlements.revokedAt)))
  return new Set(rows.map((r) => r.courseId))
}

/** Revokes what `source`/`sourceRef` granted and is not revoked yet (only `courseIds` of it, when given). */
export async function revokeGrants(
  db: DbOrTx,
  r: { memberId: number; source: EntitlementSource; sourceRef: string; courseIds?: number[]; now: Date },
) {
  // The member's entitlements first (entitlements_member_course_idx): redeem and exchange grants have no index on
  // their reference, and a purchase's is found either way.
  const granted = and(
    eq(entitlements.memberId, r.memberId),
    sourceIs(r.source),
    eq(entitlements.sourceRef, r.sourceRef),
    r.courseIds ? inArray(entitlements.courseId, r.courseIds) : undefined,
  )
  const rows = await stampOnce(db, entitlements, 'revokedAt', r.now, granted).returning({ id: entitlements.id })
  return rows.length
}

/**
 * The grants of a paid order as a part of the payment fast path's statement (orders.repository.ts
 * `settlePendingOrder`, which provides `paid_order` and `paid_items`): its courses as purchase entitlements, once
 * per order; its VIP days from max(now, current expiry); only if the member owns none of the courses of
 * `ownership_courses` yet (the order's courses and the system courses containing them: `ownershipCourses`, the
 * catalogue's CTE that this part runs before the order's update). Summary: what `grantCourses` and `extendVipMembership`
 * report for the event log.
 */
export function purchaseGrantPart(at: Date, ownershipCourses: SQL): StatementPart {
  const t = sql`${at.toISOString()}::timestamptz`
  return {
    name: 'grants',
    before: ownershipCourses,
    // Not when the member already owns one of the courses (or a system course containing one): that order is paid
    // on the general path, which refunds the owned share. The same rule as `ownedCourseIds`, in the statement.
    guard: sql`not exists (
      select 1 from ${entitlements} e
      where e.member_id = o.member_id and e.course_id in (select course_id from ownership_courses)
        and e.revoked_at is null and (e.expires_at is null or e.expires_at > ${t})
    )`,
    ctes: sql`
    grant_rows as (
      insert into ${entitlements} (member_id, course_id, source, source_ref, granted_at, expires_at)
      select paid_order.member_id, paid_items.course_id, 'purchase', paid_order.order_no, ${t}, null
      from paid_order, paid_items where paid_items.course_id is not null
      order by paid_items.id
      on conflict (source_ref, course_id) where source = 'purchase' do nothing
      returning id
    ),
    vip_item as (
      select paid_order.member_id, paid_items.vip_days from paid_order, paid_items
      where paid_items.vip_plan_id is not null and coalesce(paid_items.vip_days, 0) <> 0
    ),
    vip_row as (
      insert into ${vipMemberships} (member_id, expires_at, updated_at)
      select member_id, ${t} + vip_days * interval '1 day', ${t} from vip_item
      on conflict (member_id) do update
        set expires_at = greatest(vip_memberships.expires_at, ${t}) + (select vip_days from vip_item) * interval '1 day', updated_at = ${t}
      returning expires_at
    )`,
    summary: sql`jsonb_build_object(
      'courses', (select jsonb_agg(course_id order by id) from paid_items where course_id is not null),
      'entitlements_added', case when exists (select 1 from paid_items where course_id is not null) then (select count(*) from grant_rows) end,
      'vip_days', (select vip_days from vip_item),
      'vip_expires_at', (select to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from vip_row))`,
  }
}

// Tuition (issue 15): an enrolment (source 'tuition', source_ref "enrolment:<id>") opens its system course, and so
// every course of the programme, until the enrolment's expiry; pausing moves the grant's end, never revokes it.

/** Grants the programme once per enrolment (unique index `entitlements_tuition_key`); a repeat moves its end. */
export async function upsertTuitionGrant(
  db: DbOrTx,
  g: { memberId: number; courseId: number; sourceRef: string; until: Date; now: Date },
) {
  await db
    .insert(entitlements)
    .values({
      memberId: g.memberId,
      courseId: g.courseId,
      source: 'tuition',
      sourceRef: g.sourceRef,
      grantedAt: g.now,
      expiresAt: g.until,
    })
    .onConflictDoUpdate({
      target: [entitlements.sourceRef, entitlements.courseId],
      targetWhere: sql`source = 'tuition'`,
      set: { expiresAt: g.until },
    })
}

/** Moves the end of an enrolment's grant (a pause ends it now; resuming sets the moved expiry). */
export async function setTuitionGrantUntil(db: DbOrTx, sourceRef: string, until: Date) {
  const rows = await db
    .update(entitlements)
    .set({ expiresAt: until })
    .where(and(sourceIs('tuition'), eq(entitlements.sourceRef, sourceRef), isNull(entitlements.revokedAt)))
    .returning({ id: entitlements.id })
  return rows.length
}
