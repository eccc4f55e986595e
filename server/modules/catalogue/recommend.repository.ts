import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, courses, teachers } from '#server/db/schema/catalogue.ts'
import { courseCardSelect, courseTeacherJoin, isPublished } from './catalogue.repository.ts'

/** What a member's recommendations start from: ids other modules gave (learning, favourites). */
export interface Seeds {
  /** Courses the member watched recently and courses they favourited. */
  courseIds: number[]
  /** Videos they favourited: their courses count too. */
  videoIds: number[]
}

/** Where a page of recommendations continues: after this (score, student_count, id). */
export interface RecommendAfter {
  score: number
  studentCount: number
  id: number
}

const intArray = (ids: number[]) => sql`${sql.param([...new Set(ids)])}::int[]`

function seedCourses(s: Seeds): SQL {
  return sql`(select unnest(${intArray(s.courseIds)}) union select v.course_id from videos v where v.id = any(${intArray(s.videoIds)}))`
}

/**
 * Published courses for a member, best first: courses in the categories of the seed courses (score 2), then in
 * their top categories (score 1), then the most popular (score 0) to fill the list. Seed courses themselves are
 * left out. One statement; `after` continues a previous read (the caller drops owned courses and reads on).
 */
export async function listRecommendedCourses(
  db: DbOrTx,
  seeds: Seeds,
  after: RecommendAfter | undefined,
  limit: number,
) {
  const ids = seedCourses(seeds)
  const seedCats = sql`(select c2.category_id from courses c2 where c2.id in ${ids})`
  const seedTops = sql`(select coalesce(k2.parent_id, k2.id) from courses c2 join categories k2 on k2.id = c2.category_id where c2.id in ${ids})`
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
      and(
        isPublished,
        sql`${courses.id} not in ${ids}`,
        after
          ? sql`(${score} < ${after.score} or (${score} = ${after.score} and (${courses.studentCount} < ${after.studentCount} or (${courses.studentCount} = ${after.studentCount} and ${courses.id} > ${after.id}))))`
          : undefined,
      ),
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
