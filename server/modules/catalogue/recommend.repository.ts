import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm'
import { unionAll } from 'drizzle-orm/pg-core'
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
 *
 * Each score is its own branch, ordered and limited on its own, so each walks the courses_students_idx index
 * (most learners first) and stops after a page instead of scoring and sorting every published course.
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
  const top = sql`coalesce(${categories.parentId}, ${categories.id})`
  const tiers: [number, SQL][] = [
    [2, sql`${courses.categoryId} in ${seedCats}`],
    [1, sql`${courses.categoryId} not in ${seedCats} and ${top} in ${seedTops}`],
    [0, sql`${top} not in ${seedTops}`],
  ]
  const branches = tiers
    .filter(([score]) => !after || score <= after.score)
    .map(([score, tier]) =>
      db
        .select({ ...courseCardSelect, score: sql<number>`${sql.raw(String(score))}::int`.mapWith(Number).as('score') })
        .from(courses)
        .innerJoin(categories, eq(categories.id, courses.categoryId))
        .leftJoin(teachers, courseTeacherJoin)
        .where(
          and(
            isPublished,
            sql`${courses.id} not in ${ids}`,
            tier,
            after?.score === score
              ? sql`${courses.studentCount} <= ${after.studentCount} and (${courses.studentCount} < ${after.studentCount} or ${courses.id} > ${after.id})`
              : undefined,
          ),
        )
        .orderBy(desc(courses.studentCount), asc(courses.id))
        .limit(limit),
    )
  const [first, second, ...rest] = branches
  if (!second) return first!
  return unionAll(first!, second, ...rest)
    .orderBy(sql`score desc`, sql`student_count desc`, sql`id`)
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
