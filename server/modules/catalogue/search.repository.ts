import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, courses, teachers } from '#server/db/schema/catalogue.ts'
import { alias } from 'drizzle-orm/pg-core'
import { courseCardSelect, courseTeacherJoin, isPublished } from './catalogue.repository.ts'

/** `%word%` for ILIKE, with the pattern characters in the word taken literally. */
export function containsPattern(word: string) {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * The ids of courses one word matches: in the title, the teacher's name, the category's name or its parent
 * category's name. Each branch is a single-table ILIKE that a trigram index answers (courses.title,
 * teachers.name, categories.name) and then an indexed join, so the courses table is never read in full for a
 * word of three characters or more. pg_trgm cannot use an index for one or two characters: those words scan.
 */
function coursesMatching(pattern: string): SQL {
  return sql`(
    select c.id from courses c where c.title ilike ${pattern}
    union select c.id from teachers t join courses c on c.teacher_id = t.id where t.name ilike ${pattern}
    union select c.id from categories k join courses c on c.category_id = k.id where k.name ilike ${pattern}
    union select c.id from categories k join categories kc on kc.parent_id = k.id join courses c on c.category_id = kc.id where k.name ilike ${pattern}
  )`
}

const parent = alias(categories, 'parent_category')

export interface SearchAfter {
  score: number
  studentCount: number
  id: number
}

/**
 * A page of published courses that every word matches somewhere, best first: more words in the title first,
 * then in the teacher's name, then the most learners. Keyset paging on (score, student_count, id).
 */
export function searchCourses(db: DbOrTx, words: string[], after: SearchAfter | undefined, limit: number) {
  const patterns = words.map(containsPattern)
  const titleHits = sql.join(
    patterns.map((p) => sql`(${courses.title} ilike ${p})::int`),
    sql` + `,
  )
  const teacherHits = sql.join(
    patterns.map((p) => sql`(coalesce(${teachers.name} ilike ${p}, false))::int`),
    sql` + `,
  )
  const score = sql<number>`(100 * (${titleHits}) + 10 * (${teacherHits}))`
  return db
    .select({
      ...courseCardSelect,
      categoryName: categories.name,
      parentCategoryName: parent.name,
      score: score.mapWith(Number),
    })
    .from(courses)
    .leftJoin(teachers, courseTeacherJoin)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .leftJoin(parent, eq(parent.id, categories.parentId))
    .where(
      and(
        isPublished,
        // `= any(array(…))`, not `in (…)`: the matching ids are computed first and the courses fetched by primary
        // key, where a semi-join would be planned as a scan of every course once a word matches a few percent.
        ...patterns.map((p) => sql`${courses.id} = any(array${coursesMatching(p)})`),
        after
          ? sql`(${score}, ${courses.studentCount}, ${courses.id}) < (${after.score}, ${after.studentCount}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(score), desc(courses.studentCount), desc(courses.id))
    .limit(limit)
}

export type SearchRow = Awaited<ReturnType<typeof searchCourses>>[number]
