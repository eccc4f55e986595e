import type { SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { Db, DbOrTx } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { invalidate, publicCache } from '#server/http/public-cache.ts'
import {
  findBuyableCourses,
  findCourseCards,
  findCourseTitles,
  findPublishedCourse,
  findPublishedVideoCourse,
  findSystemCourseMembers,
  findTeacherId,
  findVideoCards,
  findVideoTitles,
} from './by-ids.repository.ts'
import {
  findCourseTeacher,
  findPointsPricedCourses,
  findTeacherWithCourses,
  listCategoriesWithCounts,
  listHotWords,
  listTreeCategoryIds,
  listTeachers,
  findCoursesForSale,
  findCourseVideoDurations,
  findVipFreeCourses,
} from './catalogue.repository.ts'
import { courseOfVideoSql, ownershipCoursesCte, rightIdsOfCourseSql } from './facts.repository.ts'
import {
  CourseDetail,
  type CategoryNode,
  type CourseCard,
  type CourseList,
  type Teacher,
  type TeacherProfile,
} from '#shared/api/catalogue.ts'
import { COURSE_LISTS_TAG, courseTags } from './cache-tags.ts'
import { coursePageFromKey, coursePageKey, type CoursePageQuery } from './course-list.ts'
import { getCourseDetail, liveStatus, type CourseBody } from './course-page.ts'
import { createCatalogueEditor as createEditor } from './editing.ts'
import { presentCourseCard, toTeacher, type CourseCardRow } from './present.ts'
import { createRecommendService as createRecommendations, type RecommendSources } from './recommend.ts'
import { createSearchService as createSearch } from './search.ts'
import { refreshSearchDocuments } from './search-index.ts'

/** Presents a course as a card (snake_case API fields); other modules list courses with it. */
export function toCourseCard(row: CourseCardRow): CourseCard {
  return presentCourseCard(row)
}

/** Builds the category tree (top categories with their children); counts include sub-categories. */
async function getCategoryTree(db: Db): Promise<CategoryNode[]> {
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

export type { CoursePageQuery } from './course-list.ts'

/** The teacher of a published course; 404 when the course is unknown or has none. */
async function getCourseTeacher(db: Db, courseId: number): Promise<Teacher> {
  const teacher = await findCourseTeacher(db, courseId)
  if (teacher === undefined) throw new AppError(Codes.NotFound, '课程不存在或已下架')
  if (teacher === null) throw new AppError(Codes.NotFound, '该课程暂无讲师信息')
  return toTeacher(teacher)
}

const TEACHER_COURSE_LIMIT = 50

/** A teacher's profile with their published courses; 404 when unknown. */
async function getTeacherProfile(db: Db, id: number): Promise<TeacherProfile> {
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
async function getTeachers(db: Db) {
  return (await listTeachers(db)).map((t) => ({ ...toTeacher(t), course_count: t.courseCount }))
}

/** The search page's hot words, in order. */
async function getHotWords(db: Db) {
  return (await listHotWords(db, 30)).map((w) => ({ id: w.id, word: w.word }))
}

/** How long shared public reads stay cached in memory. */
export const PUBLIC_CACHE_MS = 5_000

/**
 * How long a course page's data stays cached: long, because every write that changes it names the course (or its
 * teacher, category or a course it contains) and drops it in every process (server/http/public-cache.ts).
 */
const COURSE_CACHE_MS = 10 * 60_000

/** The course pages' cache is bounded by the size of their JSON too (UTF-16 code units): 64 M. */
const COURSE_CACHE_SIZE = 64 * 1024 * 1024

/**
 * A course page's data as its cache keeps it: the body as JSON, encoded once through the API's schema, and what its
 * live status and cache tags are worked out from. At 100,000 courses the cache holds most of them. Kept as objects,
 * each body was a hundred small objects that every collection traced and that misses copied on their way to the old
 * generation: cold reads of random courses did 20–30 % fewer requests a second than with no cache at all, and full
 * collections came every few seconds. A string has nothing in it to trace (an entry is now a handful of objects: the
 * string, its tags), and a hit answers it as it is; readers that need the object parse it (6–10 µs). Not a Buffer:
 * its bytes outside the heap make V8 collect in full every second or two as they grow (docs/performance.md, "Course
 * pages kept as JSON").
 */
interface KeptCourse extends Pick<CourseBody, 'type' | 'live_starts_at' | 'live_ends_at'> {
  json: string
  tags: string[]
}

const CourseBodyJson = CourseDetail.omit({ live_status: true })

function keepCourse(body: CourseBody): KeptCourse {
  const { type, live_starts_at, live_ends_at } = body
  const json = JSON.stringify(z.encode(CourseBodyJson, body))
  return { json, type, live_starts_at, live_ends_at, tags: courseTags(body) }
}

/** `{ code, msg, data }` around a kept body (a JSON object), its live status added as the last field. */
const answerWithLiveStatus = (json: string, status: CourseDetail['live_status']) =>
  `{"code":200,"msg":"ok","data":${json.slice(0, -1)},"live_status":${JSON.stringify(status)}}}`

/** The tag every course list, the home feeds and the category and teacher counts carry (cache-tags.ts). */
export { COURSE_LISTS_TAG } from './cache-tags.ts'

/**
 * The catalogue as routes and page loaders use it: the functions above bound to the database, with the hot
 * public reads cached for a few seconds (`cacheMs: 0` turns that off).
 */
export function createCatalogueService(deps: { db: Db; now: () => Date; cacheMs?: number }) {
  const { db, now } = deps
  const ttlMs = deps.cacheMs ?? PUBLIC_CACHE_MS
  const courseCache = publicCache({
    max: 100_000,
    maxSize: COURSE_CACHE_SIZE,
    sizeOf: (kept: KeptCourse) => kept.json.length,
    ttlMs: ttlMs > 0 ? COURSE_CACHE_MS : 0,
    load: async (id: number) => keepCourse(await getCourseDetail(db, id)),
    tagsOf: (kept) => kept.tags,
    answered: false,
  })
  // First pages and the pages after them, by the query's JSON; a course write drops them all (COURSE_LISTS_TAG).
  const listCache = publicCache({
    max: 5_000,
    ttlMs,
    load: (key: string) => coursePageFromKey(db, key),
    tagsOf: () => [COURSE_LISTS_TAG],
  })
  const treeCache = publicCache({
    max: 1,
    ttlMs,
    load: (_: 'tree') => getCategoryTree(db),
    tagsOf: () => [COURSE_LISTS_TAG, 'categories'],
  })
  // The ids alone, for the course lists' check of their category: without the counts, which cost 9 ms at 100,000
  // courses when the tree is not cached.
  const categoryIdsCache = publicCache({
    max: 1,
    ttlMs,
    load: async (_: 'ids') => new Set(await listTreeCategoryIds(db)),
    tagsOf: () => [COURSE_LISTS_TAG, 'categories'],
  })
  const hotWordsCache = publicCache({
    max: 1,
    ttlMs,
    load: (_: 'words') => getHotWords(db),
    tagsOf: () => ['hot-words'],
  })
  const teachersCache = publicCache({
    max: 1,
    ttlMs,
    load: (_: 'all') => getTeachers(db),
    tagsOf: () => [COURSE_LISTS_TAG, 'teachers'],
  })

  const categoryTree = () => treeCache.get('tree')

  return {
    /** The course page's data (cached); live status as of now. */
    async courseDetail(id: number): Promise<CourseDetail> {
      const kept = await courseCache.get(id)
      const course = JSON.parse(kept.json) as CourseDetail
      course.live_status = liveStatus(kept, now())
      return course
    },
    /** GET /course's answer as JSON, the envelope its schema writes, from the kept JSON: nothing encoded again. */
    async courseDetailAnswer(id: number): Promise<string> {
      const kept = await courseCache.get(id)
      return answerWithLiveStatus(kept.json, liveStatus(kept, now()))
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
      if (q.cate_id !== undefined && !(await categoryIdsCache.get('ids')).has(q.cate_id))
        throw new AppError(Codes.NotFound, '分类不存在')
      return listCache.get(coursePageKey(q))
    },
    courseTeacher: (courseId: number) => getCourseTeacher(db, courseId),
    teacher: (id: number) => getTeacherProfile(db, id),
    hotWords: () => hotWordsCache.get('words'),
    /** Forgets the cached hot words (an operator changed them) in every process. */
    invalidateHotWords: () => invalidate(db, ['hot-words']),
    /** All teachers (the /teacher page without an id). */
    teachers: () => teachersCache.get('all'),
    /** Courses that can be exchanged for points (/course/creditPay without an id), cheapest first. */
    async pointsCourses() {
      const rows = await findPointsPricedCourses(db, 100)
      return rows.map((r) => ({ ...toCourseCard(r), points_price: r.pointsPrice! }))
    },
  }
}

export type CatalogueService = ReturnType<typeof createCatalogueService>

// ---- Doors for other modules: batch reads by id (one query each), so nobody joins the catalogue's tables ----

/** Cards of the published courses among `ids`, by id (unpublished and unknown ids are left out). */
export async function courseCardsByIds(db: DbOrTx, ids: number[]): Promise<Map<number, CourseCard>> {
  const rows = await findCourseCards(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, toCourseCard(r)]))
}

/** A video as lists show it: length and free flags. */
export interface VideoCard {
  id: number
  title: string
  duration: number
  is_free: boolean
  free_seconds: number
}

/** The videos among `ids` whose course is published, each with that course's card, by video id. */
export async function videoCardsByIds(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { video: VideoCard; course: CourseCard }>> {
  const rows = await findVideoCards(db, [...new Set(ids)])
  return new Map(
    rows.map((r) => [
      r.video.id,
      {
        video: {
          id: r.video.id,
          title: r.video.title,
          duration: r.video.durationSeconds,
          is_free: r.video.isFree,
          free_seconds: r.video.freeSeconds,
        },
        course: toCourseCard(r.course),
      },
    ]),
  )
}

/** Whether the course exists and is published (what members may favourite or comment on). */
export async function isPublishedCourse(db: DbOrTx, courseId: number): Promise<boolean> {
  return (await findPublishedCourse(db, courseId)) !== null
}

/** The course of a video whose course is published; null for an unknown video or an unpublished course. */
export async function publishedVideoCourseId(db: DbOrTx, videoId: number): Promise<number | null> {
  return (await findPublishedVideoCourse(db, videoId))?.courseId ?? null
}

/** Title and cover of courses of any status, by id (where a member's comments were written). */
export async function courseTitlesByIds(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { title: string; cover: string }>> {
  const rows = await findCourseTitles(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, { title: r.title, cover: r.coverUrl }]))
}

/** Titles of videos, by id. */
export async function videoTitlesByIds(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const rows = await findVideoTitles(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, r.title]))
}

/** The published, paid (not free, price above 0) courses among `ids`, with their prices in fen, by id. */
export async function buyableCoursesByIds(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, { id: number; priceFen: number; originalPriceFen: number | null }>> {
  const rows = await findBuyableCourses(db, [...new Set(ids)])
  return new Map(rows.map((r) => [r.id, r]))
}

/**
 * A teacher's follower count (kept by triggers on the follows module's table, migration 0027), or null when there
 * is no teacher with this id.
 */
export async function teacherFollowerCount(db: DbOrTx, teacherId: number): Promise<number | null> {
  return (await findTeacherId(db, teacherId))?.followerCount ?? null
}

/** The ids of the courses the given system courses are made of (an entitlement to one opens them all). */
export async function coursesInSystemCourses(db: DbOrTx, systemCourseIds: number[]): Promise<Set<number>> {
  const rows = await findSystemCourseMembers(db, [...new Set(systemCourseIds)])
  return new Set(rows.map((r) => r.courseId))
}

// ---- Read models over the catalogue, with their own routes (search.routes.ts, recommend.routes.ts) ----

/**
 * Course search (GET /searchCourse): every word must match a published course's title, teacher or category;
 * title matches first, with the ranges to highlight (search.ts).
 */
export function createSearchService(deps: { db: Db; cacheMs?: number }) {
  return createSearch({ db: deps.db, cacheMs: deps.cacheMs ?? PUBLIC_CACHE_MS })
}

export type SearchService = ReturnType<typeof createSearchService>

/** The search documents: rebuilt when stale (after writes), all of them (after a bulk load), and a sweep. */
export { rebuildSearchDocuments, refreshSearchDocuments, startSearchIndexer } from './search-index.ts'

/**
 * Recommendations (/foryou, /center/recommend, /fav/recommend): published courses near what the member watched
 * and favourited, without what they own (recommend.ts). The member's history comes in through `sources`.
 */
export function createRecommendService(deps: { db: Db; sources: RecommendSources; cacheMs?: number }) {
  return createRecommendations(deps)
}

export type RecommendService = ReturnType<typeof createRecommendService>

// ---- Operators' editing (the admin API) ----

/**
 * The operators' catalogue editing: categories, teachers, courses of every status, chapters and videos, with the
 * rules that keep them consistent (editing.ts). Answers the admin API's shapes (#shared/api/catalogue-editing.ts).
 */
export function createCatalogueEditor(deps: { db: Db; now: () => Date }) {
  const editor = createEditor(deps)
  // A change an operator makes is searchable when the call returns: the documents it marked stale are rebuilt.
  const searchable =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const result = await write(...args)
      await refreshSearchDocuments(deps.db)
      return result
    }
  return {
    ...editor,
    createCategory: searchable(editor.createCategory),
    updateCategory: searchable(editor.updateCategory),
    updateTeacher: searchable(editor.updateTeacher),
    createCourse: searchable(editor.createCourse),
    updateCourse: searchable(editor.updateCourse),
    createChapter: searchable(editor.createChapter),
    updateChapter: searchable(editor.updateChapter),
    createVideo: searchable(editor.createVideo),
    updateVideo: searchable(editor.updateVideo),
  }
}

// ---- Facts of courses and videos for other modules (access, learning, media): see facts.ts ----------------------
export {
  courseAccessFacts,
  courseCardsWithVideoCount,
  createCatalogueFacts,
  firstLessonId,
  fitLessonsToDemoClip,
  lessonAccessFacts,
  lessonFreeFlags,
  livePullUrl,
  publishedSystemCourseIds,
  setLessonDuration,
} from './facts.ts'
export type { CatalogueFacts, CourseFacts, LessonFacts } from './facts.ts'

/**
 * For the payment fast path's statement (orders `settlePendingOrder`, which names `payable_courses`): a CTE
 * `ownership_courses(course_id)`, the order's courses and the system courses containing them, as the access
 * module's guard needs them (owning any of them means owning the course).
 */
export function ownershipCoursesInSettlement(): SQL {
  return ownershipCoursesCte
}

/**
 * For a statement the access module writes as text (ownership of the course a row names): the course and the system
 * courses containing it, as a subquery's rows.
 */
export const rightIdsOfCourse = rightIdsOfCourseSql

/** For a statement another module writes as text over its own rows: the course of a video, as a scalar subquery. */
export const courseOfVideo = courseOfVideoSql

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

/** Hot search words for the operators' console (hot-words-admin.ts). */
export { createHotWordAdmin, type HotWordAdmin } from './hot-words-admin.ts'
