import { and, asc, desc, eq, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { selectWhereIn } from '#server/db/rows.ts'
import { categories, courses, hotWords, systemCourseItems, teachers, videos } from '#server/db/schema/catalogue.ts'
import type { CourseSort, CourseType } from '#shared/api/catalogue.ts'

const published = eq(courses.status, 'published')

/** Only published courses (for the catalogue's read models: search, recommendations). */
export const isPublished = published

/**
 * The columns of a course card (catalogue.service.ts `toCourseCard`), for queries that list courses joined with
 * `teachers` (left join on `courseTeacherJoin`).
 */
/** The system courses that contain a course, as an int array (empty when none); `courseId` is a course id column. */
export const containingSystems = (courseId: typeof courses.id) =>
  sql<
    number[]
  >`coalesce((select array_agg(${systemCourseItems.systemCourseId} order by ${systemCourseItems.systemCourseId})
    from ${systemCourseItems} where ${systemCourseItems.courseId} = ${courseId}), '{}'::int[])`

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

/** The columns a course card needs, with the teacher's name: used by every list. */
const courseCardColumns = {
  id: true,
  type: true,
  title: true,
  subtitle: true,
  coverUrl: true,
  priceFen: true,
  originalPriceFen: true,
  isFree: true,
  vipFree: true,
  studentCount: true,
  liveStartsAt: true,
  status: true,
} as const

/** What a teacher's card and page show of the teacher. */
const teacherProfile = {
  id: teachers.id,
  name: teachers.name,
  title: teachers.title,
  avatarUrl: teachers.avatarUrl,
  intro: teachers.intro,
}
const teacherProfileColumns = { id: true, name: true, title: true, avatarUrl: true, intro: true } as const

/**
 * One published course with everything its page shows: category, teacher, chapters with videos, loose videos
 * and, for a system course, its courses in order. A single SQL statement (lateral JSON aggregation).
 */
export async function findCourseTree(db: DbOrTx, id: number) {
  const row = await db.query.courses.findFirst({
    where: and(eq(courses.id, id), published),
    with: {
      category: { columns: { id: true, name: true } },
      teacher: { columns: teacherProfileColumns },
      chapters: {
        columns: { id: true, title: true },
        orderBy: (c) => [asc(c.sort), asc(c.id)],
        with: {
          videos: {
            columns: { id: true, title: true, durationSeconds: true, isFree: true, freeSeconds: true },
            orderBy: (v) => [asc(v.sort), asc(v.id)],
          },
        },
      },
      videos: {
        columns: { id: true, title: true, durationSeconds: true, isFree: true, freeSeconds: true },
        where: (v) => isNull(v.chapterId),
        orderBy: (v) => [asc(v.sort), asc(v.id)],
      },
      systemItems: {
        columns: { sort: true },
        orderBy: (i) => [asc(i.sort)],
        with: { course: { columns: courseCardColumns, with: { teacher: { columns: { name: true } } } } },
      },
    },
  })
  return row ?? null
}

export type CourseTreeRow = NonNullable<Awaited<ReturnType<typeof findCourseTree>>>

type SortKey = { key: SQL; keyText: SQL; cast: SQL; keyDesc: boolean; idDesc: boolean }

/** A sort on an integer column of courses. */
const intSort = (column: AnyColumn, keyDesc: boolean, idDesc: boolean): SortKey => ({
  key: sql`${column}`,
  keyText: sql`${column}::text`,
  cast: sql`int`,
  keyDesc,
  idDesc,
})

/** How each sort orders courses: a key column and direction, ties broken by id. */
const sortKeys: Record<CourseSort, SortKey> = {
  default: intSort(courses.sort, true, false),
  new: {
    key: sql`${courses.createdAt}`,
    // Microseconds survive the round trip through the cursor; a JavaScript Date would drop them.
    keyText: sql`to_char(${courses.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    cast: sql`timestamptz`,
    keyDesc: true,
    idDesc: true,
  },
  hot: intSort(courses.studentCount, true, true),
  price_asc: intSort(courses.priceFen, false, false),
  price_desc: intSort(courses.priceFen, true, true),
}

export interface CoursePageFilter {
  categoryId?: number
  type?: CourseType
  vipFree?: boolean
  sort: CourseSort
  /** The sort key (as text) and id of the last row of the previous page. */
  after?: { key: string; id: number }
  limit: number
}

/**
 * A page of published course cards in keyset order (no OFFSET): rows strictly after `after`. Each row carries
 * `sortKey`, the text form of its sort key, for the next cursor. A category includes its sub-categories.
 */
export async function listCoursePage(db: DbOrTx, f: CoursePageFilter) {
  const s = sortKeys[f.sort]
  const conditions: SQL[] = [published]
  if (f.categoryId !== undefined) {
    conditions.push(
      sql`${courses.categoryId} in (select k.id from categories k where k.id = ${f.categoryId} or k.parent_id = ${f.categoryId})`,
    )
  }
  if (f.type) conditions.push(eq(courses.type, f.type))
  if (f.vipFree) conditions.push(eq(courses.vipFree, true))
  if (f.after) {
    const key = sql`${f.after.key}::${s.cast}`
    const id = f.after.id
    if (s.keyDesc === s.idDesc) {
      conditions.push(
        s.keyDesc ? sql`(${s.key}, ${courses.id}) < (${key}, ${id})` : sql`(${s.key}, ${courses.id}) > (${key}, ${id})`,
      )
    } else {
      // Mixed directions (key descending, id ascending) cannot use one row comparison; `key <= …` lets the
      // index on the sort key start at the cursor.
      conditions.push(
        sql`${s.key} <= ${key}`,
        or(sql`${s.key} < ${key}`, and(sql`${s.key} = ${key}`, sql`${courses.id} > ${id}`))!,
      )
    }
  }
  return db
    .select({
      ...courseCardSelect,
      sortKey: s.keyText.mapWith(String),
    })
    .from(courses)
    .leftJoin(teachers, courseTeacherJoin)
    .where(and(...conditions))
    .orderBy(s.keyDesc ? desc(s.key) : asc(s.key), s.idDesc ? desc(courses.id) : asc(courses.id))
    .limit(f.limit)
}

/** Visible categories with the number of published courses filed directly under each; parents first. */
export async function listCategoriesWithCounts(db: DbOrTx) {
  return db
    .select({
      id: categories.id,
      parentId: categories.parentId,
      name: categories.name,
      icon: categories.icon,
      // Spelled out: in a one-table select drizzle leaves column names unqualified, which would bind to courses.
      courseCount:
        sql<number>`(select count(*) from courses c where c.category_id = "categories"."id" and c.status = 'published')`.mapWith(
          Number,
        ),
    })
    .from(categories)
    .where(eq(categories.visible, true))
    .orderBy(sql`${categories.parentId} nulls first`, asc(categories.sort), asc(categories.id))
}

/** The teacher of a published course: `undefined` when there is no such course, `null` when it has no teacher. */
export async function findCourseTeacher(db: DbOrTx, courseId: number) {
  const [row] = await db
    .select(teacherProfile)
    .from(courses)
    .leftJoin(teachers, courseTeacherJoin)
    .where(and(eq(courses.id, courseId), published))
    .limit(1)
  if (!row) return undefined
  return row.id === null ? null : { ...row, id: row.id, name: row.name!, title: row.title!, intro: row.intro! }
}

/** A teacher with up to `limit` of their published courses, most prominent first. One statement. */
export async function findTeacherWithCourses(db: DbOrTx, id: number, limit: number) {
  const row = await db.query.teachers.findFirst({
    where: eq(teachers.id, id),
    columns: teacherProfileColumns,
    extras: (t) => ({
      courseCount:
        sql<number>`(select count(*) from courses c where c.teacher_id = ${t.id} and c.status = 'published')`.as(
          'course_count',
        ),
      studentCount:
        sql<number>`(select coalesce(sum(c.student_count), 0) from courses c where c.teacher_id = ${t.id} and c.status = 'published')`.as(
          'student_count',
        ),
    }),
    with: {
      courses: {
        columns: courseCardColumns,
        where: (c) => eq(c.status, 'published'),
        orderBy: (c) => [desc(c.sort), desc(c.studentCount), asc(c.id)],
        limit,
      },
    },
  })
  return row ?? null
}

/** All teachers in display order with their number of published courses. */
export async function listTeachers(db: DbOrTx) {
  return db
    .select({
      ...teacherProfile,
      courseCount:
        sql<number>`(select count(*) from courses c where c.teacher_id = "teachers"."id" and c.status = 'published')`.mapWith(
          Number,
        ),
    })
    .from(teachers)
    .orderBy(asc(teachers.sort), asc(teachers.id))
}

export async function listHotWords(db: DbOrTx, limit: number) {
  return db
    .select({ id: hotWords.id, word: hotWords.word })
    .from(hotWords)
    .orderBy(asc(hotWords.sort), asc(hotWords.id))
    .limit(limit)
}

/** Published courses that can be had for points, cheapest first, as course card rows with their points price. */
export async function findPointsPricedCourses(db: DbOrTx, limit: number) {
  return db.query.courses.findMany({
    columns: { ...courseCardColumns, pointsPrice: true },
    with: { teacher: { columns: { name: true } } },
    where: and(published, sql`${courses.pointsPrice} is not null`, eq(courses.isFree, false)),
    orderBy: [asc(courses.pointsPrice), asc(courses.id)],
    limit,
  })
}

// ---- Courses as commerce sells them: orders, bundles, coupons, VIP and refunds read them here ------------------

/**
 * Courses by id (any status) with what selling them needs, in one statement: the card columns with the teacher's
 * name, the status, the money and points prices, and the category with its parent (what category coupons match).
 */
export async function findCoursesForSale(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return []
  return db
    .select({
      ...courseCardSelect,
      status: courses.status,
      pointsPrice: courses.pointsPrice,
      categoryId: courses.categoryId,
      parentCategoryId: categories.parentId,
      systemCourseIds: containingSystems(courses.id),
    })
    .from(courses)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .leftJoin(teachers, courseTeacherJoin)
    .where(inArray(courses.id, ids))
}

/** Published courses VIP members watch free, most studied first, as course card rows. */
export async function findVipFreeCourses(db: DbOrTx, limit: number) {
  return db.query.courses.findMany({
    columns: courseCardColumns,
    with: { teacher: { columns: { name: true } } },
    where: and(eq(courses.vipFree, true), published),
    orderBy: [desc(courses.studentCount), asc(courses.id)],
    limit,
  })
}

/** Every video of these courses with its length (the refund rule weighs what was watched by it). */
export async function findCourseVideoDurations(db: DbOrTx, courseIds: number[]) {
  const fields = { id: videos.id, courseId: videos.courseId, durationSeconds: videos.durationSeconds }
  return selectWhereIn(db, videos.courseId, courseIds, fields)
}
