import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { executePrepared } from '#server/db/prepared.ts'
import { entitlements, type EntitlementSource } from '#server/db/schema/access.ts'

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

/** Revokes what `source`/`sourceRef` granted and is not revoked yet (only `courseIds` of it, when given). */
export async function revokeGrants(
  db: DbOrTx,
  r: { source: EntitlementSource; sourceRef: string; courseIds?: number[]; now: Date },
) {
  const rows = await db
    .update(entitlements)
    .set({ revokedAt: r.now })
    .where(
      and(
        eq(entitlements.source, r.source),
        eq(entitlements.sourceRef, r.sourceRef),
        isNull(entitlements.revokedAt),
        r.courseIds ? inArray(entitlements.courseId, r.courseIds) : undefined,
      ),
    )
    .returning({ id: entitlements.id })
  return rows.length
}
