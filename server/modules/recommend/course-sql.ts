import { eq, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { courses, teachers } from '#server/db/schema/catalogue.ts'

/**
 * The columns of a course card (catalogue.service.ts `toCourseCard`), for repositories that list courses joined
 * with `teachers` (left join on `courseTeacherJoin`).
 */
export const courseCardSelect = {
  id: courses.id,
  type: courses.type,
  title: courses.title,
  subtitle: courses.subtitle,
  coverUrl: courses.coverUrl,
  priceFen: courses.priceFen,
  originalPriceFen: courses.originalPriceFen,
  isFree: courses.isFree,
  vipFree: courses.vipFree,
  studentCount: courses.studentCount,
  liveStartsAt: courses.liveStartsAt,
  teacherName: teachers.name,
}

export const courseTeacherJoin = eq(teachers.id, courses.teacherId)

export const isPublished = eq(courses.status, 'published')

/**
 * True when the member may watch the whole course through an entitlement that counts now: to the course itself
 * or to a system course containing it (the same rule as entitlement.repository.ts `findWatchFacts`).
 */
export function ownedBy(memberId: number, courseId: AnyPgColumn | SQL, now: Date): SQL<boolean> {
  return sql<boolean>`exists (
    select 1 from entitlements e
    where e.member_id = ${memberId}
      and e.revoked_at is null
      and (e.expires_at is null or e.expires_at > ${now.toISOString()}::timestamptz)
      and (e.course_id = ${courseId}
        or e.course_id in (select s.system_course_id from system_course_items s where s.course_id = ${courseId}))
  )`
}
