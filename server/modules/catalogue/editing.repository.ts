import { and, asc, count, desc, eq, ilike, inArray, lt } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { categories, chapters, courses, teachers, videos } from '#server/db/schema/catalogue.ts'

// The operators' catalogue editing (editing.ts): every status, every field.

export type CategoryRow = typeof categories.$inferSelect
export type TeacherRow = typeof teachers.$inferSelect
export type CourseRow = typeof courses.$inferSelect
export type ChapterRow = typeof chapters.$inferSelect
export type VideoRow = typeof videos.$inferSelect

// ---- Categories ----

export async function listCategories(db: DbOrTx) {
  return db.select().from(categories).orderBy(asc(categories.parentId), asc(categories.sort), asc(categories.id))
}

export async function findCategory(db: DbOrTx, id: number) {
  const [row] = await db.select().from(categories).where(eq(categories.id, id))
  return row ?? null
}

export async function countSubcategories(db: DbOrTx, id: number) {
  const [row] = await db.select({ n: count() }).from(categories).where(eq(categories.parentId, id))
  return row?.n ?? 0
}

export async function insertCategory(db: DbOrTx, values: typeof categories.$inferInsert) {
  const [row] = await db.insert(categories).values(values).returning()
  return row!
}

export async function updateCategory(db: DbOrTx, id: number, values: Partial<typeof categories.$inferInsert>) {
  const [row] = await db.update(categories).set(values).where(eq(categories.id, id)).returning()
  return row ?? null
}

// ---- Teachers ----

export async function listTeachers(db: DbOrTx) {
  return db.select().from(teachers).orderBy(asc(teachers.sort), asc(teachers.id))
}

export async function findTeacher(db: DbOrTx, id: number) {
  const [row] = await db.select().from(teachers).where(eq(teachers.id, id))
  return row ?? null
}

export async function insertTeacher(db: DbOrTx, values: typeof teachers.$inferInsert) {
  const [row] = await db.insert(teachers).values(values).returning()
  return row!
}

export async function updateTeacher(db: DbOrTx, id: number, values: Partial<typeof teachers.$inferInsert>) {
  const [row] = await db.update(teachers).set(values).where(eq(teachers.id, id)).returning()
  return row ?? null
}

// ---- Courses ----

/** Newest first, paged by id. */
export async function listCourses(
  db: DbOrTx,
  filter: { categoryId?: number; status?: CourseRow['status']; q?: string; before?: number; limit: number },
) {
  return db
    .select()
    .from(courses)
    .where(
      and(
        filter.categoryId === undefined ? undefined : eq(courses.categoryId, filter.categoryId),
        filter.status === undefined ? undefined : eq(courses.status, filter.status),
        filter.q ? ilike(courses.title, `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
        filter.before === undefined ? undefined : lt(courses.id, filter.before),
      ),
    )
    .orderBy(desc(courses.id))
    .limit(filter.limit)
}

export async function findCourse(db: DbOrTx, id: number) {
  const [row] = await db.select().from(courses).where(eq(courses.id, id))
  return row ?? null
}

export async function insertCourse(db: DbOrTx, values: typeof courses.$inferInsert) {
  const [row] = await db.insert(courses).values(values).returning()
  return row!
}

export async function updateCourse(db: DbOrTx, id: number, values: Partial<typeof courses.$inferInsert>) {
  const [row] = await db.update(courses).set(values).where(eq(courses.id, id)).returning()
  return row ?? null
}

// ---- Chapters ----

export async function listChapters(db: DbOrTx, courseId: number) {
  return db.select().from(chapters).where(eq(chapters.courseId, courseId)).orderBy(asc(chapters.sort), asc(chapters.id))
}

export async function findChapter(db: DbOrTx, id: number) {
  const [row] = await db.select().from(chapters).where(eq(chapters.id, id))
  return row ?? null
}

export async function insertChapter(db: DbOrTx, values: typeof chapters.$inferInsert) {
  const [row] = await db.insert(chapters).values(values).returning()
  return row!
}

export async function updateChapter(db: DbOrTx, id: number, values: Partial<typeof chapters.$inferInsert>) {
  const [row] = await db.update(chapters).set(values).where(eq(chapters.id, id)).returning()
  return row ?? null
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
  const [row] = await db.insert(videos).values(values).returning({ id: videos.id })
  return row!.id
}

export async function updateVideo(db: DbOrTx, id: number, values: Partial<typeof videos.$inferInsert>) {
  const [row] = await db.update(videos).set(values).where(eq(videos.id, id)).returning({ id: videos.id })
  return row?.id ?? null
}
