import { sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import type { SearchDocument, SearchSource } from './search-text.ts'

export interface StaleCourse extends SearchSource {
  courseId: number
  published: boolean
  studentCount: number
}

/**
 * Up to `limit` stale search documents with what they are built from, locked until the transaction ends (other
 * processes refreshing at the same time skip them; a write that marks one of them stale again waits, and marks
 * it after this refresh commits).
 */
export async function lockStaleCourses(tx: DbOrTx, limit: number): Promise<StaleCourse[]> {
  const { rows } = await tx.execute<{
    course_id: number
    title: string
    tags: string[]
    teacher_name: string | null
    category_name: string | null
    parent_name: string | null
    lessons: string[]
    published: boolean
    student_count: number
  }>(sql`
    with stale as (
      select course_id from course_search where stale order by course_id limit ${limit} for update skip locked
    )
    select s.course_id, c.status = 'published' as published, c.student_count, c.title, c.tags, t.name as teacher_name, k.name as category_name, p.name as parent_name,
      array(select x.title from (
        select h.title, h.sort, 0 as kind, h.id from chapters h where h.course_id = c.id
        union all select v.title, v.sort, 1, v.id from videos v where v.course_id = c.id
      ) x order by x.kind, x.sort, x.id) as lessons
    from stale s join courses c on c.id = s.course_id
    left join teachers t on t.id = c.teacher_id
    left join categories k on k.id = c.category_id
    left join categories p on p.id = k.parent_id`)
  return rows.map((r) => ({
    courseId: r.course_id,
    published: r.published,
    studentCount: r.student_count,
    title: r.title,
    tags: r.tags,
    teacherName: r.teacher_name,
    categoryNames: [r.category_name, r.parent_name],
    lessons: r.lessons,
  }))
}

/** Writes rebuilt documents and clears their stale mark. */
export async function writeSearchDocuments(
  tx: DbOrTx,
  docs: (SearchDocument & { courseId: number; lessons: readonly string[]; published: boolean; studentCount: number })[],
  withTerms = true,
) {
  if (docs.length === 0) return
  const json = JSON.stringify(
    docs.map((d) => ({
      id: d.courseId,
      head: d.head,
      doc: d.doc,
      body: d.body,
      lessons: d.lessons,
      published: d.published,
      student_count: d.studentCount,
    })),
  )
  await tx.execute(sql`
    update course_search s set head = x.head::tsvector, doc = x.doc::tsvector, body = x.body, lessons = x.lessons,
      published = x.published, student_count = x.student_count, stale = false
    from jsonb_to_recordset(${json}::jsonb)
      as x(id int, head text, doc text, body text, lessons text[], published boolean, student_count int)
    where s.course_id = x.id`)
  if (!withTerms) return
  // An int[] literal: drizzle would spread a JavaScript array into a row.
  const ids = `{${docs.map((d) => d.courseId).join(',')}}`
  await tx.execute(sql`delete from course_terms where course_id = any(${ids}::int[])`)
  await tx.execute(
    sql`insert into course_terms (term, tier, student_count, course_id) ${termsOf(sql`s.course_id = any(${ids}::int[]) and`)}`,
  )
}

/** Each lexeme once per published course, at the best field it is in (weights A–D as tiers 1–4). */
const termsOf = (filter: SQL) => sql`
  select u.lexeme, min(ascii(w) - 64), s.student_count, s.course_id
  from course_search s cross join lateral unnest(s.doc) u cross join lateral unnest(u.weights) w
  where ${filter} s.published
  group by u.lexeme, s.course_id, s.student_count`

/** Every course's terms written again from the documents, in one statement (after a bulk rebuild). */
export async function rewriteAllTerms(db: DbOrTx) {
  // The vocabulary of corrections too: the insert's trigger (migration 0032) fills it again from the new terms.
  await db.execute(sql`truncate course_terms, search_words`)
  await db.execute(sql`insert into course_terms (term, tier, student_count, course_id) ${termsOf(sql``)}`)
}

/** Marks every course's document stale (after a bulk load that bypassed the triggers). */
export async function markAllStale(db: DbOrTx) {
  await db.execute(sql`
    insert into course_search (course_id, published, student_count)
    select id, status = 'published', student_count from courses
    on conflict (course_id) do update set stale = true, published = excluded.published,
      student_count = excluded.student_count`)
}
