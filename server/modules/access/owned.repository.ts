import { and, eq, gt, isNull, or } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { entitlements } from '#server/db/schema/access.ts'

/** The courses a member holds an entitlement to that counts now (neither revoked nor expired). */
export async function findEntitledCourseIds(db: DbOrTx, memberId: number, now: Date) {
  const rows = await db
    .selectDistinct({ courseId: entitlements.courseId })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.memberId, memberId),
        isNull(entitlements.revokedAt),
        or(isNull(entitlements.expiresAt), gt(entitlements.expiresAt, now)),
      ),
    )
  return rows.map((r) => r.courseId)
}
