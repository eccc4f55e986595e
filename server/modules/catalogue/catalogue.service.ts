import type { Db } from '#server/db/database.ts'
import type { CourseType } from '#shared/api/catalogue.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import {
  findCourseTeacher,
  findPointsPricedCourses,
  findCourseTree,
  findTeacherWithCourses,
  listCategoriesWithCounts,
  listCoursePage,
  listHotWords,
  listTeachers,
  type CourseTreeRow,
} from './catalogue.repository.ts'
import type {
  CategoryNode,
  CourseCard,
  CourseDetail,
  CourseList,
  CourseListQuery,
  CourseSort,
  Teacher,
  TeacherProfile,
} from '#shared/api/catalogue.ts'
import { TtlCache } from './ttl-cache.ts'
// Commerce's batch reads (end of file).
import type { DbOrTx } from '#server/db/database.ts'
import { findCoursesForSale, findCourseVideoDurations, findVipFreeCourses } from './catalogue.repository.ts'

/** The row shape every course card is made from (a course with its teacher's name). */
export interface CourseCardRow {
  id: number
  type: CourseType
  title: string
  subtitle: string
  coverUrl: string
  priceFen: number
  originalPriceFen: number | null
  isFree: boolean
  vipFree: boolean
  studentCount: number
  liveStartsAt: Date | string | null
  teacherName?: string | null
  teacher?: { name: string } | null
}

function iso(value: Date | string | null): string | null {
  if (value === null) return null
  // Nested rows of a relational query arrive as JSON text; top-level ones as Date.
  return (
    value instanceof Date
      ? value
      : new Date(value.endsWith('Z') || /[+-]\d\d(:?\d\d)?$/.test(value) ? value : `${value}Z`)
  ).toISOString()
}

/** Presents a course as a card (snake_case API fields). */
export function toCourseCard(row: CourseCardRow): CourseCard {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    subtitle: row.subtitle,
    cover: row.coverUrl,
    price_fen: row.priceFen,
    original_price_fen: row.originalPriceFen,
    is_free: row.isFree,
    vip_free: row.vipFree,
    student_count: row.studentCount,
    teacher_name: row.teacherName ?? row.teacher?.name ?? null,
    live_starts_at: iso(row.liveStartsAt),
  }
}

function toTeacher(row: { id: number; name: string; title: string; avatarUrl: string | null; intro: string }): Teacher {
  return { id: row.id, name: row.name, title: row.title, avatar: row.avatarUrl, intro: row.intro }
}

type VideoRow = CourseTreeRow['videos'][number]
const toVideo = (v: VideoRow) => ({
  id: v.id,
  title: v.title,
  duration: v.durationSeconds,
  is_free: v.isFree,
  free_seconds: v.freeSeconds,
})

/** The course page's data without the parts that depend on the time of the request. */
type CourseBody = Omit<CourseDetail, 'live_status'>

function toCourseBody(row: CourseTreeRow): CourseBody {
  const chapters = row.chapters.map((c) => ({ id: c.id, title: c.title, videos: c.videos.map(toVideo) }))
  if (row.videos.length > 0)
    chapters.push({ id: 0, title: chapters.length > 0 ? '其他视频' : '课程视频', videos: row.videos.map(toVideo) })
  const all = chapters.flatMap((c) => c.videos)
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    subtitle: row.subtitle,
    cover: row.coverUrl,
    intro: row.intro,
    price_fen: row.priceFen,
    original_price_fen: row.originalPriceFen,
    is_free: row.isFree,
    points_price: row.pointsPrice,
    vip_free: row.vipFree,
    level: row.level,
    tags: row.tags,
    student_count: row.studentCount,
    category_id: row.category.id,
    category_name: row.category.name,
    live_starts_at: iso(row.liveStartsAt),
    live_ends_at: iso(row.liveEndsAt),
    video_count: all.length,
    duration_seconds: all.reduce((sum, v) => sum + v.duration, 0),
    teacher: row.teacher ? toTeacher(row.teacher) : null,
    chapters,
    sub_courses: row.systemItems.filter((i) => i.course.status === 'published').map((i) => toCourseCard(i.course)),
  }
}

/** Upcoming, live or ended, for live courses; null for the others. */
export function liveStatus(
  course: { type: CourseType; live_starts_at: string | null; live_ends_at: string | null },
  now: Date,
) {
  if (course.type !== 'live' || !course.live_starts_at) return null
  const t = now.getTime()
  if (t < Date.parse(course.live_starts_at)) return 'upcoming' as const
  if (course.live_ends_at && t >= Date.parse(course.live_ends_at)) return 'ended' as const
  return 'live' as const
}

/** The course page data of a published course, or a 404 AppError. */
export async function getCourseDetail(db: Db, id: number): Promise<CourseBody> {
  const row = await findCourseTree(db, id)
  if (!row) throw new AppError(Codes.NotFound, '课程不存在或已下架')
  return toCourseBody(row)
}

/** Builds the category tree (top categories with their children); counts include sub-categories. */
export async function getCategoryTree(db: Db): Promise<CategoryNode[]> {
  const rows = await listCategoriesWithCounts(db)
  const tops = rows.filter((r) => r.parentId === null)
  return tops.map((top) => {
    const children = rows
      .filter((r) => r.parentId === top.id)
      .map((c) => ({ id: c.id, name: c.name, icon: c.icon, course_count: c.courseCount }))
    return {
      id: top.id,
      name: top.name,
      icon: top.icon,
      course_count: top.courseCount + children.reduce((n, c) => n + c.course_count, 0),
      children,
    }
  })
}

interface Cursor {
  sort: CourseSort
  key: string
  id: number
}

function encodeCursor(c: Cursor) {
  return Buffer.from(JSON.stringify([c.sort, c.key, c.id])).toString('base64url')
}

function decodeCursor(text: string, sort: CourseSort): Cursor {
  const bad = () => new AppError(Codes.BadRequest, '参数 cursor 格式不正确（cursor）')
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw bad()
  const [s, key, id] = parsed as unknown[]
  // A cursor only continues the listing it came from.
  if (
    s !== sort ||
    typeof key !== 'string' ||
    typeof id !== 'number' ||
    !Number.isInteger(id) ||
    id < 1 ||
    id > 2_147_483_647
  )
    throw bad()
  const valid = sort === 'new' ? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(key) : /^-?\d{1,10}$/.test(key)
  if (!valid) throw bad()
  return { sort, key, id }
}

/** A course list query as pages build it: `vip_free` may be left out. */
export type CoursePageQuery = Omit<CourseListQuery, 'vip_free'> & { vip_free?: boolean }

/** One page of course cards; `next_cursor` continues the same filter and sort. */
export async function getCoursePage(db: Db, q: CoursePageQuery): Promise<CourseList> {
  const after = q.cursor ? decodeCursor(q.cursor, q.sort) : undefined
  const rows = await listCoursePage(db, {
    categoryId: q.cate_id,
    type: q.type,
    vipFree: q.vip_free,
    sort: q.sort,
    after,
    limit: q.limit + 1,
  })
  const page = rows.slice(0, q.limit)
  const last = page.at(-1)
  return {
    list: page.map(toCourseCard),
    next_cursor: rows.length > q.limit && last ? encodeCursor({ sort: q.sort, key: last.sortKey, id: last.id }) : null,
  }
}

/** The teacher of a published course; 404 when the course is unknown or has none. */
export async function getCourseTeacher(db: Db, courseId: number): Promise<Teacher> {
  const teacher = await findCourseTeacher(db, courseId)
  if (teacher === undefined) throw new AppError(Codes.NotFound, '课程不存在或已下架')
  if (teacher === null) throw new AppError(Codes.NotFound, '该课程暂无讲师信息')
  return toTeacher(teacher)
}

export const TEACHER_COURSE_LIMIT = 50

/** A teacher's profile with their published courses; 404 when unknown. */
export async function getTeacherProfile(db: Db, id: number): Promise<TeacherProfile> {
  const row = await findTeacherWithCourses(db, id, TEACHER_COURSE_LIMIT)
  if (!row) throw new AppError(Codes.NotFound, '讲师不存在')
  return {
    ...toTeacher(row),
    course_count: Number(row.courseCount),
    student_count: Number(row.studentCount),
    courses: row.courses.map((c) => toCourseCard({ ...c, teacherName: row.name })),
  }
}

/** Every teacher with their number of published courses, for the teachers page. */
export async function getTeachers(db: Db) {
  return (await listTeachers(db)).map((t) => ({ ...toTeacher(t), course_count: t.courseCount }))
}

/** The search page's hot words, in order. */
export async function getHotWords(db: Db) {
  return (await listHotWords(db, 30)).map((w) => ({ id: w.id, word: w.word }))
}

/** How long shared public reads stay cached in memory. */
export const PUBLIC_CACHE_MS = 5_000

/**
 * The catalogue as routes and page loaders use it: the functions above bound to the database, with the hot
 * public reads cached for a few seconds (`cacheMs: 0` turns that off).
 */
export function createCatalogueService(deps: { db: Db; now: () => Date; cacheMs?: number }) {
  const { db, now } = deps
  const ttl = deps.cacheMs ?? PUBLIC_CACHE_MS
  const courseCache = new TtlCache<number, CourseBody>(ttl, 2000)
  const treeCache = new TtlCache<'tree', CategoryNode[]>(ttl)
  const hotWordsCache = new TtlCache<'words', { id: number; word: string }[]>(ttl)
  const teachersCache = new TtlCache<'all', Awaited<ReturnType<typeof getTeachers>>>(ttl)

  const categoryTree = () => treeCache.get('tree', () => getCategoryTree(db))

  return {
    /** The course page's data (cached briefly); live status as of now. */
    async courseDetail(id: number): Promise<CourseDetail> {
      const body = await courseCache.get(id, () => getCourseDetail(db, id))
      return { ...body, live_status: liveStatus(body, now()) }
    },
    categoryTree,
    /** One category (top or sub) with its parent, from the cached tree; null when unknown or hidden. */
    async category(id: number) {
      for (const top of await categoryTree()) {
        if (top.id === id) return { ...top, parent: null }
        const child = top.children.find((c) => c.id === id)
        if (child) return { ...child, children: [], parent: { id: top.id, name: top.name } }
      }
      return null
    },
    /** A page of courses; an unknown category answers 404. */
    async courseList(q: CoursePageQuery): Promise<CourseList> {
      if (q.cate_id !== undefined) {
        const tree = await categoryTree()
        const known = tree.some((t) => t.id === q.cate_id || t.children.some((c) => c.id === q.cate_id))
        if (!known) throw new AppError(Codes.NotFound, '分类不存在')
      }
      return getCoursePage(db, q)
    },
    courseTeacher: (courseId: number) => getCourseTeacher(db, courseId),
    teacher: (id: number) => getTeacherProfile(db, id),
    hotWords: () => hotWordsCache.get('words', () => getHotWords(db)),
    /** All teachers (the /teacher page without an id). */
    teachers: () => teachersCache.get('all', () => getTeachers(db)),
    /** Courses that can be exchanged for points (/course/creditPay without an id), cheapest first. */
    async pointsCourses() {
      const rows = await findPointsPricedCourses(db, 100)
      return rows.map((r) => ({ ...toCourseCard(r), points_price: r.pointsPrice! }))
    },
  }
}

export type CatalogueService = ReturnType<typeof createCatalogueService>

// ---- Courses as commerce sells them: orders, bundles, coupons, VIP and refunds read them here ------------------

/** A course with what selling it needs (see `coursesForSale`). */
export type CourseForSale = Awaited<ReturnType<typeof findCoursesForSale>>[number] & {
  /** Its category and that category's parent: what category-scoped coupons match. */
  categoryIds: number[]
}

/**
 * Courses by id, any status, in the order of `ids` (unknown ids left out), each with its card columns, status,
 * prices and categories: what checkout, bundles and coupons need, in one statement.
 */
export async function coursesForSale(db: DbOrTx, ids: number[]): Promise<CourseForSale[]> {
  const rows = await findCoursesForSale(db, [...new Set(ids)])
  const byId = new Map(
    rows.map((r) => [
      r.id,
      { ...r, categoryIds: r.parentCategoryId === null ? [r.categoryId] : [r.categoryId, r.parentCategoryId] },
    ]),
  )
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** Published courses VIP members watch free, most studied first, as cards (the VIP tab). */
export async function vipFreeCourseCards(db: DbOrTx, limit: number): Promise<CourseCard[]> {
  return (await findVipFreeCourses(db, limit)).map(toCourseCard)
}

/** Every video of these courses with its length in seconds. */
export async function courseVideoDurations(
  db: DbOrTx,
  courseIds: number[],
): Promise<{ id: number; courseId: number; durationSeconds: number }[]> {
  return findCourseVideoDurations(db, courseIds)
}
