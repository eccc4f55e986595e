import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, courses, courseSearch, teachers } from '#server/db/schema/catalogue.ts'
import { courseCardSelect, courseTeacherJoin, isPublished } from './catalogue.repository.ts'
import { weighted, type WordQuery } from './search-text.ts'

const parent = alias(categories, 'parent_category')

export interface SearchAfter {
  score: number
  studentCount: number
  id: number
}

const tsquery = (q: string) => sql`${q}::tsquery`

/**
 * How well one word matches a course, from its document's head: in the title as written (8) or as pinyin (6), in
 * the teacher's name or a tag (4, pinyin 3), in a category (2), else only in a lesson title (1).
 */
function wordScore(w: WordQuery): SQL {
  const head = courseSearch.head
  return sql`case when ${head} @@ ${tsquery(weighted(w.direct, 'A'))} then 8
    when ${head} @@ ${tsquery(weighted(w.any, 'A'))} then 6
    when ${head} @@ ${tsquery(weighted(w.direct, 'B'))} then 4
    when ${head} @@ ${tsquery(weighted(w.any, 'B'))} then 3
    when ${head} @@ ${tsquery(weighted(w.any, 'C'))} then 2 else 1 end`
}

/**
 * A page of published courses that every word matches somewhere (title, teacher, tags, categories, lesson
 * titles), best first: the sum of the words' scores, then the most learners. The GIN index on the documents
 * answers the match (Chinese characters and pairs, Latin word prefixes, pinyin); words of three or more Chinese
 * characters are then checked whole in the folded text. Keyset paging on (score, student_count, id).
 */
export function searchCourses(db: DbOrTx, words: WordQuery[], after: SearchAfter | undefined, limit: number) {
  const all = words.map((w) => weighted(w.any, '')).join(' & ')
  const score = sql<number>`(${sql.join(words.map(wordScore), sql` + `)})`
  const phrases = words.flatMap((w) => w.phrases)
  return db
    .select({
      ...courseCardSelect,
      categoryName: categories.name,
      parentCategoryName: parent.name,
      tags: courses.tags,
      // The lesson titles only for courses whose head does not match every word: the lesson shown as the reason.
      lessons: sql<
        string[] | null
      >`case when not (${courseSearch.head} @@ ${tsquery(all)}) then ${courseSearch.lessons} end`,
      score: score.mapWith(Number),
    })
    .from(courseSearch)
    .innerJoin(courses, eq(courses.id, courseSearch.courseId))
    .leftJoin(teachers, courseTeacherJoin)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .leftJoin(parent, eq(parent.id, categories.parentId))
    .where(
      and(
        sql`${courseSearch.doc} @@ ${tsquery(all)}`,
        isPublished,
        ...phrases.map((p) => sql`strpos(${courseSearch.body}, ${p}) > 0`),
        after
          ? sql`(${score}, ${courses.studentCount}, ${courses.id}) < (${after.score}, ${after.studentCount}, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(score), desc(courses.studentCount), desc(courses.id))
    .limit(limit)
}

export type SearchRow = Awaited<ReturnType<typeof searchCourses>>[number]
