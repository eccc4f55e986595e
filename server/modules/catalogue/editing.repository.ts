import { and, eq, asc, inArray, or, sql, type SQL } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { DbOrTx } from '#server/db/database.ts'
import { containsGrams, tableList } from '#server/db/list.ts'
import { eqIfGiven, insertId, rowsBy } from '#server/db/rows.ts'
import { categories, chapters, courses, teachers, videos } from '#server/db/schema/catalogue.ts'
import type { AdminCourseSortKey } from '#shared/api/catalogue-editing.ts'

// The operators' catalogue editing (editing.ts): every status, every field.

export type CategoryRow = typeof categories.$inferSelect
export type TeacherRow = typeof teachers.$inferSelect
export type CourseRow = typeof courses.$inferSelect
export type ChapterRow = typeof chapters.$inferSelect
export type VideoRow = typeof videos.$inferSelect

// One row by id: find, add, change (the changed row, or null when there is no such row).
export const { find: findCategory, insert: insertCategory, update: updateCategory } = rowsBy(categories, categories.id)
export const { find: findTeacher, insert: insertTeacher, update: updateTeacher } = rowsBy(teachers, teachers.id)
export const { find: findCourse, insert: insertCourse, update: updateCourse } = rowsBy(courses, courses.id)
export const { find: findChapter, insert: insertChapter, update: updateChapter } = rowsBy(chapters, chapters.id)

// ---- Categories ----

export async function listCategories(db: DbOrTx) {
  return db.select().from(categories).orderBy(asc(categories.parentId), asc(categories.sort), asc(categories.id))
}

export async function countSubcategories(db: DbOrTx, id: number) {
  return db.$count(categories, eq(categories.parentId, id))
}

// ---- Teachers ----

export async function listTeachers(db: DbOrTx) {
  return db.select().from(teachers).orderBy(asc(teachers.sort), asc(teachers.id))
}

// ---- Courses ----

export interface CourseFilter {
  type?: CourseRow['type']
  status?: CourseRow['status']
  /** The category or, for a top-level one, any of its sub-categories. */
  categoryId?: number
  q?: string
  /** Only the courses whose teacher is this staff member (a teacher's own). */
  ownerMemberId?: number
}

function courseConditions(f: CourseFilter): SQL | undefined {
  return and(
    eqIfGiven(courses.type, f.type),
    eqIfGiven(courses.status, f.status),
    f.categoryId === undefined
      ? undefined
      : or(
          eq(courses.categoryId, f.categoryId),
          sql`${courses.categoryId} in (select ${categories.id} from ${categories} where ${categories.parentId} = ${f.categoryId})`,
        ),
    f.q ? containsGrams(courses.title, f.q) : undefined,
    f.ownerMemberId === undefined
      ? undefined
      : sql`${courses.teacherId} in (select ${teachers.id} from ${teachers} where ${teachers.memberId} = ${f.ownerMemberId})`,
  )
}

/** The staff member who teaches a course (its teacher's member), null when none; undefined for an unknown course. */
export async function courseOwner(db: DbOrTx, courseId: number): Promise<number | null | undefined> {
  const [row] = await db
    .select({ memberId: teachers.memberId })
    .from(courses)
    .leftJoin(teachers, eq(teachers.id, courses.teacherId))
    .where(eq(courses.id, courseId))
  return row ? row.memberId : undefined
}

/** The course of a chapter or of a video, or undefined. */
export async function courseOfItem(db: DbOrTx, kind: 'chapter' | 'video', id: number) {
  const table = kind === 'chapter' ? chapters : videos
  const [row] = await db.select({ courseId: table.courseId }).from(table).where(eq(table.id, id))
  return row?.courseId
}

/** The teacher a staff member is linked to, if any. */
export async function teacherOfMember(db: DbOrTx, memberId: number) {
  const [row] = await db.select({ id: teachers.id }).from(teachers).where(eq(teachers.memberId, memberId))
  return row?.id
}

const courseSortColumns: Record<AdminCourseSortKey, AnyPgColumn> = {
  id: courses.id,
  updated_at: courses.updatedAt,
  price_fen: courses.priceFen,
  sort: courses.sort,
  live_starts_at: courses.liveStartsAt,
}

/**
 * One page of courses of every status, in the asked order (ties by id; courses without a live time last), and how
 * many the filter matches.
 */
export const courseList = tableList(courses, courseConditions, courseSortColumns, ['live_starts_at'])

// ---- Chapters ----

export async function listChapters(db: DbOrTx, courseId: number) {
  return db.select().from(chapters).where(eq(chapters.courseId, courseId)).orderBy(asc(chapters.sort), asc(chapters.id))
}

// ---- Videos ----

/** A course's videos, or the videos with these ids, in display order. */
export async function listVideos(db: DbOrTx, where: { courseId: number } | { ids: number[] }) {
  return db
    .select()
    .from(videos)
    .where('courseId' in where ? eq(videos.courseId, where.courseId) : inArray(videos.id, where.ids))
    .orderBy(asc(videos.sort), asc(videos.id))
}

export async function insertVideo(db: DbOrTx, values: typeof videos.$inferInsert) {
  return insertId(db, videos, values)
}

export async function updateVideo(db: DbOrTx, id: number, values: Partial<typeof videos.$inferInsert>) {
  const [row] = await db.update(videos).set(values).where(eq(videos.id, id)).returning({ id: videos.id })
  return row?.id ?? null
}
