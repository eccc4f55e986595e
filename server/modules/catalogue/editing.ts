import type { Db } from '#server/db/database.ts'
import { violatesUnique } from '#server/db/unique-violation.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import { invalidate } from '#server/http/public-cache.ts'
import { COURSE_LISTS_TAG } from './cache-tags.ts'
import type {
  AdminCourseListQuery,
  CategoryCreate,
  CategoryPatch,
  ChapterCreate,
  ChapterPatch,
  CourseCreate,
  CoursePatch,
  TeacherCreate,
  TeacherPatch,
  VideoCreate,
  VideoPatch,
} from '#shared/api/catalogue-editing.ts'
import {
  countSubcategories,
  courseOfItem,
  courseOwner,
  findCategory,
  findChapter,
  findCourse,
  findTeacher,
  insertCategory,
  insertChapter,
  insertCourse,
  insertTeacher,
  insertVideo,
  listCategories,
  listChapters,
  courseList,
  listTeachers,
  listVideos,
  updateCategory,
  updateChapter,
  updateCourse,
  updateTeacher,
  updateVideo,
  teacherOfMember,
  type CourseRow,
} from './editing.repository.ts'
import { memberExists } from '#server/modules/members/members.service.ts'
import { listing } from '#server/http/admin-list.ts'
import { toCategory, toChapter, toCourse, toTeacher, toVideo } from './editing-present.ts'

const notFound = (what: string, id: number, field: string) =>
  new AppError(Codes.NotFound, `${what} ${id} 不存在`, { field })
const bad = (message: string, data?: { field: string }) => new AppError(Codes.BadRequest, message, data)

/** The columns of the course list's CSV export. */
const COURSE_CSV_HEADER = [
  '课程ID',
  '标题',
  '类型',
  '状态',
  '分类ID',
  '售价（元）',
  '积分价',
  'VIP免费',
  '直播开始',
  '更新时间',
]

const courseFilter = (q: AdminCourseListQuery, ownerMemberId: number | null = null) => ({
  type: q.type,
  status: q.status,
  categoryId: q.category_id,
  q: q.q,
  ownerMemberId: ownerMemberId ?? undefined,
})

const date = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v))
/** Drops the keys whose value is undefined, so a PATCH only touches what it names. */
const defined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>
  }

/** The rules that span fields, checked on the course as it will be after the change. */
function checkCourse(c: Pick<CourseRow, 'isFree' | 'priceFen' | 'originalPriceFen' | 'liveStartsAt' | 'liveEndsAt'>) {
  if (c.isFree && c.priceFen !== 0) throw bad('免费课程的价格必须为 0', { field: 'price_fen' })
  if (c.originalPriceFen !== null && c.originalPriceFen < c.priceFen)
    throw bad('原价不能低于售价', { field: 'original_price_fen' })
  if (c.liveStartsAt && c.liveEndsAt && c.liveEndsAt <= c.liveStartsAt)
    throw bad('直播结束时间必须晚于开始时间', { field: 'live_ends_at' })
}

/**
 * The operators' catalogue editing (the admin API): categories (two levels), teachers, courses of every status,
 * chapters and videos, with the rules that keep them consistent. Answers the admin API's shapes.
 */
export function createCatalogueEditor(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps
  /** Drops the cached public reads a write changed, in every process (server/http/public-cache.ts). */
  const changed = (...tags: string[]) => invalidate(db, tags)
  /** A staff member a teacher may be linked to: an existing member not linked to another teacher (400 otherwise). */
  async function linkable(memberId: number | null, teacherId: number | null) {
    if (memberId === null) return null
    if (!(await memberExists(db, memberId)))
      throw new AppError(Codes.BadRequest, `会员 ${memberId} 不存在`, { field: 'member_id' })
    const linked = await teacherOfMember(db, memberId)
    if (linked !== undefined && linked !== teacherId)
      throw new AppError(Codes.BadRequest, `这个员工已关联讲师 ${linked}`, { field: 'member_id' })
    return memberId
  }
  const lists = COURSE_LISTS_TAG

  async function courseOrThrow(id: number, field = 'id') {
    const row = await findCourse(db, id)
    if (!row) throw notFound('课程', id, field)
    return row
  }

  async function checkParent(parentId: number | null | undefined, selfId?: number) {
    if (parentId === null || parentId === undefined) return
    if (parentId === selfId) throw bad('分类不能以自己为上级', { field: 'parent_id' })
    const parent = await findCategory(db, parentId)
    if (!parent) throw notFound('分类', parentId, 'parent_id')
    // Two levels, as the category browser shows them: an area and its sub-categories.
    if (parent.parentId !== null) throw bad('分类最多两级，上级必须是一级分类', { field: 'parent_id' })
    if (selfId !== undefined && (await countSubcategories(db, selfId)) > 0)
      throw bad('这个分类下还有子分类，不能再设上级', { field: 'parent_id' })
  }

  /**
   * Writes a category; Conflict on `field` when its parent has another of the same name (the unique index decides,
   * so two operators adding 「软件」 at once cannot both succeed).
   */
  async function siblingNamed<R>(name: string, field: string, write: () => Promise<R>): Promise<R> {
    try {
      return await write()
    } catch (err) {
      if (violatesUnique(err, 'categories_sibling_name_key'))
        throw new AppError(Codes.Conflict, `同级已有名为「${name}」的分类`, { field })
      throw err
    }
  }

  async function checkTeacher(teacherId: number | null | undefined) {
    if (teacherId !== null && teacherId !== undefined && !(await findTeacher(db, teacherId)))
      throw notFound('讲师', teacherId, 'teacher_id')
  }

  async function checkCategory(categoryId: number | undefined) {
    if (categoryId !== undefined && !(await findCategory(db, categoryId)))
      throw notFound('分类', categoryId, 'category_id')
  }

  async function checkChapter(chapterId: number | null | undefined, courseId: number) {
    if (chapterId === null || chapterId === undefined) return
    const chapter = await findChapter(db, chapterId)
    if (!chapter) throw notFound('章节', chapterId, 'chapter_id')
    if (chapter.courseId !== courseId) throw bad(`章节 ${chapterId} 不属于课程 ${courseId}`, { field: 'chapter_id' })
  }

  async function video(id: number) {
    const [row] = await listVideos(db, { ids: [id] })
    if (!row) throw notFound('视频', id, 'id')
    return toVideo(row)
  }

  return {
    // ---- Categories ----
    /** Every category, top level first, in display order. */
    categories: async () => {
      return { list: (await listCategories(db)).map(toCategory) }
    },
    /** A new category (an area, or a sub-category of one). */
    createCategory: async (body: CategoryCreate) => {
      await checkParent(body.parent_id)
      const row = await siblingNamed(body.name, 'name', () =>
        insertCategory(db, {
          name: body.name,
          parentId: body.parent_id ?? null,
          icon: body.icon ?? null,
          sort: body.sort ?? 0,
          visible: body.visible ?? true,
        }),
      )
      await changed('categories', lists)
      return toCategory(row)
    },
    /** Changes the fields given; the two-level rule holds afterwards. */
    updateCategory: async (id: number, body: CategoryPatch) => {
      const before = await findCategory(db, id)
      if (!before) throw notFound('分类', id, 'id')
      if (body.parent_id !== undefined) await checkParent(body.parent_id, id)
      // A rename onto a sibling's name, or a move under a parent that has a category of this name, is refused alike.
      const row = await siblingNamed(body.name ?? before.name, body.name !== undefined ? 'name' : 'parent_id', () =>
        updateCategory(
          db,
          id,
          defined({
            name: body.name,
            parentId: body.parent_id,
            icon: body.icon,
            sort: body.sort,
            visible: body.visible,
          }),
        ),
      )
      await changed('categories', `category:${id}`, lists)
      return toCategory(row!)
    },

    // ---- Teachers ----
    teachers: async () => {
      return { list: (await listTeachers(db)).map(toTeacher) }
    },
    createTeacher: async (body: TeacherCreate) => {
      const row = await insertTeacher(db, {
        name: body.name,
        title: body.title ?? '',
        avatarUrl: body.avatar_url ?? null,
        intro: body.intro ?? '',
        sort: body.sort ?? 0,
        memberId: await linkable(body.member_id ?? null, null),
      })
      await changed('teachers')
      return toTeacher(row)
    },
    updateTeacher: async (id: number, body: TeacherPatch) => {
      const row = await updateTeacher(
        db,
        id,
        defined({
          name: body.name,
          title: body.title,
          avatarUrl: body.avatar_url,
          intro: body.intro,
          sort: body.sort,
          memberId: body.member_id === undefined ? undefined : await linkable(body.member_id, id),
        }),
      )
      if (!row) throw notFound('讲师', id, 'id')
      await changed('teachers', `teacher:${id}`, lists)
      return toTeacher(row)
    },

    // ---- Courses ----
    /**
     * Who owns what a request is about, for a teacher's scoped grant (shared/staff/roles.ts): the staff member
     * teaching the course (of the chapter, of the video); null when it has none, or is unknown.
     */
    ownerOf: async (kind: 'course' | 'chapter' | 'video', id: number) => {
      const courseId = kind === 'course' ? id : await courseOfItem(db, kind, id)
      return { ownerMemberId: courseId === undefined ? null : ((await courseOwner(db, courseId)) ?? null) }
    },
    /**
     * Courses of every status, filtered and sorted (the console's list; a teacher's own with `ownerMemberId`): a
     * page, or the CSV (COURSE_CSV_HEADER) of every match.
     */
    courses: {
      page: async (query: AdminCourseListQuery, ownerMemberId: number | null = null) =>
        listing(courseList, db, query, courseFilter(query, ownerMemberId)).page((rows) => rows.map(toCourse)),
      csv: (query: AdminCourseListQuery, ownerMemberId: number | null = null) =>
        listing(courseList, db, query, courseFilter(query, ownerMemberId)).csv(COURSE_CSV_HEADER, (rows: CourseRow[]) =>
          rows.map((r) => [
            r.id,
            r.title,
            r.type,
            r.status,
            r.categoryId,
            (r.priceFen / 100).toFixed(2),
            r.pointsPrice ?? '',
            r.vipFree ? '是' : '否',
            r.liveStartsAt?.toISOString() ?? '',
            r.updatedAt.toISOString(),
          ]),
        ),
    },
    /** A course with its chapters and videos; NotFound (field `id`) when unknown. */
    course: async (id: number) => {
      const course = await courseOrThrow(id)
      const [chapterRows, videoRows] = await Promise.all([listChapters(db, id), listVideos(db, { courseId: id })])
      return { ...toCourse(course), chapters: chapterRows.map(toChapter), videos: videoRows.map(toVideo) }
    },
    /** NotFound (naming `field`) unless the course exists, whatever its status. */
    requireCourse: async (id: number, field = 'id') => {
      await courseOrThrow(id, field)
    },
    createCourse: async (body: CourseCreate) => {
      await checkCategory(body.category_id)
      await checkTeacher(body.teacher_id)
      const values = {
        type: body.type,
        title: body.title,
        subtitle: body.subtitle ?? '',
        coverUrl: body.cover_url,
        intro: body.intro ?? '',
        categoryId: body.category_id,
        teacherId: body.teacher_id ?? null,
        priceFen: body.price_fen,
        originalPriceFen: body.original_price_fen ?? null,
        pointsPrice: body.points_price ?? null,
        isFree: body.is_free ?? false,
        vipFree: body.vip_free ?? false,
        status: body.status ?? 'published',
        level: body.level ?? 'beginner',
        tags: body.tags ?? [],
        liveStartsAt: date(body.live_starts_at) ?? null,
        liveEndsAt: date(body.live_ends_at) ?? null,
        livePullUrl: body.live_pull_url ?? null,
        consultQr: body.consult_qr ?? null,
        consultUrl: body.consult_url ?? null,
        sort: body.sort ?? 0,
        createdAt: now(),
        updatedAt: now(),
      }
      checkCourse(values)
      const row = await insertCourse(db, values)
      await changed(`course:${row.id}`, 'teachers', 'categories', lists)
      return toCourse(row)
    },
    updateCourse: async (id: number, body: CoursePatch) => {
      const current = await courseOrThrow(id)
      await checkCategory(body.category_id)
      await checkTeacher(body.teacher_id)
      const changes = defined({
        type: body.type,
        title: body.title,
        subtitle: body.subtitle,
        coverUrl: body.cover_url,
        intro: body.intro,
        categoryId: body.category_id,
        teacherId: body.teacher_id,
        priceFen: body.price_fen,
        originalPriceFen: body.original_price_fen,
        pointsPrice: body.points_price,
        isFree: body.is_free,
        vipFree: body.vip_free,
        status: body.status,
        level: body.level,
        tags: body.tags,
        liveStartsAt: date(body.live_starts_at),
        liveEndsAt: date(body.live_ends_at),
        livePullUrl: body.live_pull_url,
        consultQr: body.consult_qr,
        consultUrl: body.consult_url,
        sort: body.sort,
      })
      checkCourse({ ...current, ...changes })
      const row = (await updateCourse(db, id, { ...changes, updatedAt: now() }))!
      await changed(`course:${id}`, 'teachers', 'categories', lists)
      return toCourse(row)
    },
    /** Makes an image (already stored) the course's cover. */
    setCourseCover: async (id: number, coverUrl: string) => {
      const row = await updateCourse(db, id, { coverUrl, updatedAt: now() })
      if (!row) throw notFound('课程', id, 'id')
      await changed(`course:${id}`, lists)
      return toCourse(row)
    },

    // ---- Chapters ----
    chapters: async (courseId: number) => {
      await courseOrThrow(courseId, 'course_id')
      return { list: (await listChapters(db, courseId)).map(toChapter) }
    },
    createChapter: async (body: ChapterCreate) => {
      await courseOrThrow(body.course_id, 'course_id')
      const row = await insertChapter(db, { courseId: body.course_id, title: body.title, sort: body.sort ?? 0 })
      await changed(`course:${body.course_id}`)
      return toChapter(row)
    },
    updateChapter: async (id: number, body: ChapterPatch) => {
      const row = await updateChapter(db, id, defined({ title: body.title, sort: body.sort }))
      if (!row) throw notFound('章节', id, 'id')
      await changed(`course:${row.courseId}`)
      return toChapter(row)
    },

    // ---- Videos ----
    /** A course's videos in display order. */
    videos: async (courseId: number) => {
      await courseOrThrow(courseId, 'course_id')
      return (await listVideos(db, { courseId })).map(toVideo)
    },
    /** One video; NotFound when unknown. */
    video,
    createVideo: async (body: VideoCreate) => {
      await courseOrThrow(body.course_id, 'course_id')
      await checkChapter(body.chapter_id, body.course_id)
      const id = await insertVideo(db, {
        courseId: body.course_id,
        chapterId: body.chapter_id ?? null,
        title: body.title,
        freeSeconds: body.free_seconds ?? 0,
        isFree: body.is_free ?? false,
        sort: body.sort ?? 0,
        createdAt: now(),
      })
      await changed(`course:${body.course_id}`)
      return video(id)
    },
    updateVideo: async (id: number, body: VideoPatch) => {
      const [current] = await listVideos(db, { ids: [id] })
      if (!current) throw notFound('视频', id, 'id')
      await checkChapter(body.chapter_id, current.courseId)
      await updateVideo(
        db,
        id,
        defined({
          chapterId: body.chapter_id,
          title: body.title,
          freeSeconds: body.free_seconds,
          isFree: body.is_free,
          sort: body.sort,
        }),
      )
      await changed(`course:${current.courseId}`)
      return video(id)
    },
  }
}
