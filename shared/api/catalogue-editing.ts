import { z } from 'zod'
import { Fen } from './money.ts'
import { adminListQuery } from './admin-list.ts'
import { courseTypes } from './catalogue.ts'
import { JsonId as id, PathId } from './params.ts'

// The operators' catalogue editing (/api/admin/categories, teachers, courses, chapters, videos): what they send and
// what they get back. The admin module validates requests with these; the catalogue module edits with them.

/** At most 1,000,000 yuan: a typo of extra zeros is refused rather than sold. */
const MAX_PRICE_FEN = 100_000_000

const text = (max: number) => z.string().trim().max(max)
const title = (max: number) => z.string().trim().min(1).max(max)
const sort = z.number().int().min(-1_000_000).max(1_000_000)
const fen = z
  .number()
  .int('价格最多两位小数')
  .min(0, '价格不能小于 0 元')
  .max(MAX_PRICE_FEN, '价格不能大于 1,000,000 元')
/** An in-site path (`/media/…`, `/demo/…`) or an http(s) URL. */
const imageUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^(\/[^/\s]|https?:\/\/)\S*$/, '必须是站内路径或 http(s) 地址')
const datetime = z.iso.datetime({ offset: true })

/** A PATCH body: any of the fields, at least one. */
const patchOf = <T extends z.ZodRawShape>(shape: T) =>
  z
    .strictObject(shape)
    .partial()
    .refine((v) => Object.keys(v).length > 0, '至少要修改一项')

/** A POST body: the fields, the `required` ones as they are and the others optional. */
const createOf = <T extends z.ZodRawShape, R extends keyof T & string>(shape: T, required: readonly R[]) => {
  const fields = Object.entries(shape).map(([key, field]) => [
    key,
    required.includes(key as R) ? field : z.optional(field),
  ])
  return z.strictObject(Object.fromEntries(fields) as { [K in keyof T]: K extends R ? T[K] : z.ZodOptional<T[K]> })
}

const categoryFields = {
  name: title(20),
  parent_id: id.nullable(),
  icon: imageUrl.nullable(),
  sort,
  visible: z.boolean(),
}
export const CategoryCreate = createOf(categoryFields, ['name'])
export const CategoryPatch = patchOf(categoryFields)
export type CategoryCreate = z.output<typeof CategoryCreate>
export type CategoryPatch = z.output<typeof CategoryPatch>

const teacherFields = {
  name: title(30),
  title: text(50),
  avatar_url: imageUrl.nullable(),
  intro: text(5000),
  sort,
  /** The staff member (a member id) who is this teacher: with the teacher role they see and edit these courses. */
  member_id: id.nullable(),
}
export const TeacherCreate = createOf(teacherFields, ['name'])
export const TeacherPatch = patchOf(teacherFields)
export type TeacherCreate = z.output<typeof TeacherCreate>
export type TeacherPatch = z.output<typeof TeacherPatch>

const courseStatuses = ['draft', 'published', 'hidden'] as const
const courseLevels = ['beginner', 'intermediate', 'advanced'] as const

const courseFields = {
  type: z.enum(courseTypes),
  title: title(100),
  subtitle: text(200),
  cover_url: imageUrl.min(1),
  intro: text(20_000),
  category_id: id,
  teacher_id: id.nullable(),
  price_fen: fen.describe('Price in fen (0.01 CNY), 0–100,000,000'),
  original_price_fen: fen.nullable().describe('Crossed-out price in fen; at least price_fen'),
  points_price: z
    .number()
    .int('积分价须为整数')
    .min(1, '积分价至少 1 积分')
    .max(100_000_000, '积分价不能大于 100,000,000 积分')
    .nullable()
    .describe('Also for this many points (/course/creditPay/{id}); null: money only'),
  is_free: z.boolean(),
  vip_free: z.boolean(),
  status: z.enum(courseStatuses),
  level: z.enum(courseLevels),
  tags: z.array(title(20)).max(10),
  live_starts_at: datetime.nullable(),
  live_ends_at: datetime.nullable(),
  /** The operator's external live stream (an HLS pull URL); the live page plays it while the course is live. */
  live_pull_url: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
  /** System courses: the course's own consultation contact (GET /course/contact); null: the site's default. */
  consult_qr: imageUrl.nullable(),
  consult_url: z
    .url({ protocol: /^https?$/, error: '请输入以 http(s) 开头的企业微信链接' })
    .max(500)
    .nullable(),
  sort,
}
export const CourseCreate = createOf(courseFields, ['type', 'title', 'cover_url', 'category_id', 'price_fen']).extend({
  status: courseFields.status.optional().describe('draft, published (default) or hidden'),
})
export const CoursePatch = patchOf(courseFields)
export type CourseCreate = z.output<typeof CourseCreate>
export type CoursePatch = z.output<typeof CoursePatch>

const optionalId = PathId.optional()

/** What the console's course list sorts by (live_starts_at: the live schedule, courses without one last). */
const adminCourseSorts = ['id', 'updated_at', 'price_fen', 'sort', 'live_starts_at'] as const
export type AdminCourseSortKey = (typeof adminCourseSorts)[number]

/** GET /api/admin/courses: the console list (offset pages, sort, CSV), filtered by type, status, category, title. */
export const AdminCourseListQuery = adminListQuery(adminCourseSorts, '-id').extend({
  type: z.enum(courseTypes).optional(),
  status: z.enum(courseStatuses).optional(),
  category_id: optionalId.describe('A category; a top-level one includes its sub-categories'),
  q: z.string().trim().max(50, '搜索内容最多 50 个字').optional().describe('Part of the title'),
})
export type AdminCourseListQuery = z.output<typeof AdminCourseListQuery>

const chapterFields = { title: title(100), sort }
export const ChapterCreate = createOf({ course_id: id, ...chapterFields }, ['course_id', 'title'])
export const ChapterPatch = patchOf(chapterFields)
/** The course whose chapters or videos an operator lists (GET /admin/chapters, GET /admin/videos). */
export const CourseItemsQuery = z.object({ course_id: PathId })
export type ChapterCreate = z.output<typeof ChapterCreate>
export type ChapterPatch = z.output<typeof ChapterPatch>

const MAX_FREE_SECONDS = 24 * 3600
const videoFields = {
  chapter_id: id.nullable(),
  title: title(100),
  free_seconds: z
    .number()
    .int('试看秒数须为整数')
    .min(0, '试看秒数不能小于 0')
    .max(MAX_FREE_SECONDS, '试看最长 86,400 秒（24 小时）')
    .describe('Seconds anyone may preview; 0 for none'),
  is_free: z.boolean().describe('Anyone may watch the whole video'),
  sort,
}
export const VideoCreate = createOf({ course_id: id, ...videoFields }, ['course_id', 'title'])
export const VideoPatch = patchOf(videoFields)
export type VideoCreate = z.output<typeof VideoCreate>
export type VideoPatch = z.output<typeof VideoPatch>

// ---- What the editing answers (the admin API adds each video's media) ----

export const AdminCategory = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  name: z.string(),
  icon: z.string().nullable(),
  sort: z.number().int(),
  visible: z.boolean(),
})
export const AdminTeacher = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  avatar_url: z.string().nullable(),
  intro: z.string(),
  sort: z.number().int(),
  member_id: z.number().int().nullable(),
})
export const AdminCourse = z.object({
  id: z.number().int(),
  type: z.enum(courseTypes),
  title: z.string(),
  subtitle: z.string(),
  cover_url: z.string(),
  intro: z.string(),
  category_id: z.number().int(),
  teacher_id: z.number().int().nullable(),
  price_fen: Fen,
  original_price_fen: Fen.nullable(),
  points_price: z.number().int().nullable(),
  is_free: z.boolean(),
  vip_free: z.boolean(),
  status: z.enum(courseStatuses),
  level: z.enum(courseLevels),
  tags: z.array(z.string()),
  live_starts_at: z.string().nullable(),
  live_ends_at: z.string().nullable(),
  live_pull_url: z.string().nullable(),
  consult_qr: z.string().nullable(),
  consult_url: z.string().nullable(),
  sort: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
})
export const AdminChapter = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  title: z.string(),
  sort: z.number().int(),
})
export const AdminVideo = z.object({
  id: z.number().int(),
  course_id: z.number().int(),
  chapter_id: z.number().int().nullable(),
  title: z.string(),
  duration_seconds: z.number().int(),
  free_seconds: z.number().int(),
  is_free: z.boolean(),
  sort: z.number().int(),
})
