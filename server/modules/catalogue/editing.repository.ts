import { asc, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { containsText } from '#server/db/list.ts'
import { eqIfGiven, insertId, newestFirst, rowsBy } from '#server/db/rows.ts'
import { categories, chapters, courses, teachers, videos } from '#server/db/schema/catalogue.ts'

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

/** Newest first, paged by id. */
export async function listCourses(
  db: DbOrTx,
  filter: { categoryId?: number; status?: CourseRow['status']; q?: string; before?: number; limit: number },
) {
  return newestFirst(db, courses, filter, [
    eqIfGiven(courses.categoryId, filter.categoryId),
    eqIfGiven(courses.status, filter.status),
    filter.q ? containsText(courses.title, filter.q) : undefined,
  ])
}

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
