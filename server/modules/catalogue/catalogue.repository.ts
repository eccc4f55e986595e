import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '#server/db/database.ts'
import { selectWhereIn } from '#server/db/rows.ts'
import { categories, courses, hotWords, systemCourseItems, teachers, videos } from '#server/db/schema/catalogue.ts'
import { preparedText, queryPrepared, shapedStatements, statementParameters } from '#server/db/prepared.ts'
import type { CourseCard, CourseSort, CourseType } from '#shared/api/catalogue.ts'
import type { CourseCardSqlRow } from './present.ts'

const published = eq(courses.status, 'published')

/** Only published courses (for the catalogue's read models: search, recommendations). */
export const isPublished = published

/**
 * The columns of a course card (catalogue.service.ts `toCourseCard`), for queries that list courses joined with
 * `teachers` (left join on `courseTeacherJoin`).
 */
/** The system courses that contain a course, as an int array (empty when none); `courseId` is a course id column. */
const containingSystems = (courseId: typeof courses.id) =>
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

/**
 * The same card columns in SQL text (for prepared statements written as text), over `courses c` left-joined with
 * `teachers t`, named as `courseCardSelect` names them.
 */
export const courseCardColumnsSql = `c.id, c.type, c.title, c.subtitle, c.cover_url as "coverUrl", c.price_fen as "priceFen",
  c.original_price_fen as "originalPriceFen", c.is_free as "isFree", c.vip_free as "vipFree",
  c.student_count as "studentCount", c.live_starts_at as "liveStartsAt", t.name as "teacherName"`

/** The columns of a video that statements select next to its course's, named as the row types below name them. */
export const videoColumnsSql = `v.id as "videoId", v.title as "videoTitle", v.duration_seconds as "durationSeconds",
    v.is_free as "videoIsFree", v.free_seconds as "freeSeconds"`

/** A video's columns as `videoColumnsSql` selects them. */
export interface VideoSqlColumns {
  videoId: number
  videoTitle: string
  durationSeconds: number
  videoIsFree: boolean
  freeSeconds: number
}

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

/** A timestamp as JavaScript's `toISOString` writes it, in SQL (for JSON built by PostgreSQL). */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A lesson as the course page lists it (JSON built in SQL, API field names). */
const videoJson = `json_build_object('id', v.id, 'title', v.title, 'duration', v.duration_seconds, 'is_free', v.is_free,
  'free_seconds', v.free_seconds)`

/**
 * One published course with everything its page shows: category, teacher, chapters with videos, loose videos
 * and, for a system course, its published courses in order, as cards. One prepared statement; the nested parts are
 * JSON built by PostgreSQL in the API's shapes, so the process only parses them.
 */
const courseTree = preparedText(
  'catalogue_course_tree',
  `select c.id, c.type, c.title, c.subtitle, c.cover_url, c.intro, c.price_fen, c.original_price_fen, c.is_free,
    c.points_price, c.vip_free, c.level, c.tags, c.student_count, c.category_id, k.name as category_name,
    c.live_starts_at, c.live_ends_at,
    case when t.id is null then null else json_build_object('id', t.id, 'name', t.name, 'title', t.title,
      'avatar', t.avatar_url, 'intro', t.intro) end as teacher,
    coalesce((select json_agg(json_build_object('id', ch.id, 'title', ch.title, 'videos',
        coalesce((select json_agg(${videoJson} order by v.sort, v.id) from videos v where v.chapter_id = ch.id),
          '[]'::json)) order by ch.sort, ch.id)
      from chapters ch where ch.course_id = c.id), '[]'::json) as chapters,
    coalesce((select json_agg(${videoJson} order by v.sort, v.id)
      from videos v where v.course_id = c.id and v.chapter_id is null), '[]'::json) as loose_videos,
    coalesce((select json_agg(json_build_object('id', s.id, 'type', s.type, 'title', s.title,
        'subtitle', s.subtitle, 'cover', s.cover_url, 'price_fen', s.price_fen,
        'original_price_fen', s.original_price_fen, 'is_free', s.is_free, 'vip_free', s.vip_free,
        'student_count', s.student_count, 'teacher_name', st.name,
        'live_starts_at', ${isoSql('s.live_starts_at')}) order by i.sort)
      from system_course_items i join courses s on s.id = i.course_id left join teachers st on st.id = s.teacher_id
      where i.system_course_id = c.id and s.status = 'published'), '[]'::json) as sub_courses
  from courses c join categories k on k.id = c.category_id left join teachers t on t.id = c.teacher_id
  where c.id = $1 and c.status = 'published'`,
)

/** A lesson of the course page, as the API shows it. */
interface CourseTreeVideo {
  id: number
  title: string
  duration: number
  is_free: boolean
  free_seconds: number
}

export interface CourseTreeRow {
  id: number
  type: CourseType
  title: string
  subtitle: string
  cover_url: string
  intro: string
  price_fen: number
  original_price_fen: number | null
  is_free: boolean
  points_price: number | null
  vip_free: boolean
  level: 'beginner' | 'intermediate' | 'advanced'
  tags: string[]
  student_count: number
  category_id: number
  category_name: string
  live_starts_at: Date | null
  live_ends_at: Date | null
  teacher: { id: number; name: string; title: string; avatar: string | null; intro: string } | null
  chapters: { id: number; title: string; videos: CourseTreeVideo[] }[]
  loose_videos: CourseTreeVideo[]
  sub_courses: CourseCard[]
}

/** The course page's row of a published course, or null. */
export async function findCourseTree(db: DbOrTx, id: number): Promise<CourseTreeRow | null> {
  const [row] = await queryPrepared<CourseTreeRow>(db, courseTree, [id])
  return row ?? null
}

/** How each sort orders courses: a key column and direction, ties broken by id; the key as text for the cursor. */
interface SortKey {
  key: string
  keyText: string
  cast: string
  keyDesc: boolean
  idDesc: boolean
}

const intSort = (column: string, keyDesc: boolean, idDesc: boolean): SortKey => ({
  key: `c.${column}`,
  keyText: `c.${column}::text`,
  cast: 'int',
  keyDesc,
  idDesc,
})

const sortKeys: Record<CourseSort, SortKey> = {
  default: intSort('sort', true, false),
  new: {
    key: 'c.created_at',
    // Microseconds survive the round trip through the cursor; a JavaScript Date would drop them.
    keyText: `to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    cast: 'timestamptz',
    keyDesc: true,
    idDesc: true,
  },
  hot: intSort('student_count', true, true),
  price_asc: intSort('price_fen', false, false),
  price_desc: intSort('price_fen', true, true),
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

/** A course card row with the teacher's name and the text of its sort key. */
type CoursePageRow = CourseCardSqlRow & { sortKey: string }

/**
 * The statements of `listCoursePage`, one per shape of page: a sort, which filters, first page or not (5 × 16 = 80
 * today, room for more sorts).
 */
const coursePageStatement = shapedStatements('catalogue_course_page', 200)

/**
 * A page of published course cards in keyset order (no OFFSET): rows strictly after `after`. Each row carries
 * `sortKey`, the text form of its sort key, for the next cursor. A category includes its sub-categories. One
 * prepared statement per shape of page.
 */
export async function listCoursePage(db: DbOrTx, f: CoursePageFilter): Promise<CoursePageRow[]> {
  const s = sortKeys[f.sort]
  const p = statementParameters()
  const where = [`c.status = 'published'`]
  if (f.categoryId !== undefined) {
    const k = p.add(f.categoryId, 'int')
    where.push(`c.category_id in (select k.id from categories k where k.id = ${k} or k.parent_id = ${k})`)
  }
  if (f.type) where.push(`c.type = ${p.add(f.type, 'text')}`)
  if (f.vipFree) where.push('c.vip_free')
  if (f.after) {
    const key = `${p.add(f.after.key, 'text')}::${s.cast}`
    const id = p.add(f.after.id, 'int')
    if (s.keyDesc === s.idDesc) where.push(`(${s.key}, c.id) ${s.keyDesc ? '<' : '>'} (${key}, ${id})`)
    // Mixed directions (key descending, id ascending) cannot use one row comparison; `key <= …` lets the
    // index on the sort key start at the cursor.
    else where.push(`${s.key} <= ${key}`, `(${s.key} < ${key} or (${s.key} = ${key} and c.id > ${id}))`)
  }
  return coursePageStatement<CoursePageRow>(
    db,
    `select ${courseCardColumnsSql}, ${s.keyText} as "sortKey"
      from courses c left join teachers t on t.id = c.teacher_id
      where ${where.join(' and ')}
      order by ${s.key} ${s.keyDesc ? 'desc' : 'asc'}, c.id ${s.idDesc ? 'desc' : 'asc'}
      limit ${p.add(f.limit, 'int')}`,
    p.values,
  )
}

/**
 * The ids of the categories the category tree shows (visible top categories and their visible sub-categories), and
 * nothing else: what a course list checks its category against, without counting courses.
 */
export async function listTreeCategoryIds(db: DbOrTx): Promise<number[]> {
  const rows = await queryPrepared<{ id: number }>(db, treeCategoryIds, [])
  return rows.map((r) => r.id)
}

const treeCategoryIds = preparedText(
  'catalogue_tree_category_ids',
  `select c.id from categories c left join categories p on p.id = c.parent_id
  where c.visible and (c.parent_id is null or (p.visible and p.parent_id is null))`,
)

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
