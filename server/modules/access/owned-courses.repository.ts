import { sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { executePrepared } from '#server/db/prepared.ts'
import { entitlements } from '#server/db/schema/access.ts'
import { systemCourseItems } from '#server/db/schema/catalogue.ts'

// TEMPORARY (commerce branch): `ownedCourseIds` as the access helper's branch provides it, written here only so that
// this branch compiles. At merge, drop this file and the `ownedCourseIds` of access.service.ts's purchases section
// in favour of theirs. It is the ownership rule orders had (server/modules/orders/orders.repository.ts `ownedSql`).

/** Which of `courseIds` an entitlement that counts now gives the member, itself or through a system course. */
export async function findOwnedCourseIds(db: DbOrTx, memberId: number, courseIds: number[], now: Date) {
  if (courseIds.length === 0) return []
  const rows = await executePrepared<{ id: number }>(
    db,
    'zixue_owned_course_ids',
    sql`
    select c.id from unnest(${sql.param(courseIds)}::int[]) as c(id)
    where exists (
      select 1 from ${entitlements} e
      where e.member_id = ${memberId}::int
        and e.revoked_at is null
        and (e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)
        and (e.course_id = c.id
          or e.course_id in (select ${systemCourseItems.systemCourseId} from ${systemCourseItems} where ${systemCourseItems.courseId} = c.id)))`,
  )
  return rows.map((r) => Number(r.id))
}
