import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, courses, teachers } from '#server/db/schema/catalogue.ts'
import { courseCardSelect, courseTeacherJoin, isPublished, ownedBy } from './course-sql.ts'

/** What a member's recommendations start from. */
export interface Interests {
  memberId: number
  /** The courses of the videos they watched most recently (study progress). */
  watched: boolean
  /** Their favourite courses and the courses of their favourite videos. */
  favourites: boolean
}

/** How many recently watched courses count: enough to show a taste, few enough to stay cheap. */
const RECENT_WATCHED = 50

function seedCourses(i: Interests): SQL {
  const parts: SQL[] = []
  if (i.watched) {
    parts.push(
      sql`(select p.course_id from study_progress p where p.member_id = ${i.memberId} order by p.updated_at desc limit ${RECENT_WATCHED})`,
    )
  }
  if (i.favourites) {
    parts.push(
      sql`(select f.course_id from favourites f where f.member_id = ${i.memberId} and f.course_id is not null)`,
    )
    parts.push(
      sql`(select v.course_id from favourites f join videos v on v.id = f.video_id where f.member_id = ${i.memberId})`,
    )
  }
  return sql.join(parts, sql` union `)
}

/**
 * Published courses for a member, best first: courses in the categories of the seed courses (score 2), then in
 * their top categories (score 1), then the most popular (score 0) to fill the list. Seed courses themselves and
 * owned courses are left out. One statement.
 */
export async function listRecommendedCourses(db: DbOrTx, interests: Interests, now: Date, limit: number) {
  const seeds = seedCourses(interests)
  const seedCats = sql`(select c2.category_id from courses c2 where c2.id in (${seeds}))`
  const seedTops = sql`(select coalesce(k2.parent_id, k2.id) from courses c2 join categories k2 on k2.id = c2.category_id where c2.id in (${seeds}))`
  const score = sql<number>`case
    when ${courses.categoryId} in ${seedCats} then 2
    when coalesce(${categories.parentId}, ${categories.id}) in ${seedTops} then 1
    else 0 end`.mapWith(Number)
  return db
    .select({ ...courseCardSelect, score })
    .from(courses)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .leftJoin(teachers, courseTeacherJoin)
    .where(
      and(isPublished, sql`${courses.id} not in (${seeds})`, sql`not ${ownedBy(interests.memberId, courses.id, now)}`),
    )
    .orderBy(desc(score), desc(courses.studentCount), asc(courses.id))
    .limit(limit)
}

/** The most popular published courses (most learners first). */
export async function listPopularCourses(db: DbOrTx, limit: number) {
  return db
    .select(courseCardSelect)
    .from(courses)
    .leftJoin(teachers, courseTeacherJoin)
    .where(isPublished)
    .orderBy(desc(courses.studentCount), asc(courses.id))
    .limit(limit)
}
