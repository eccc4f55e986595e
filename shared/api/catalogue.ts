import { z } from 'zod'
import { Fen } from './money.ts'
import { OptionalIdQuery, IdQuery } from './params.ts'

// The catalogue's API shapes: what lists, course pages and teacher pages answer. Server and browser share them.

/** The four kinds of course: a series of lessons, a single lesson, a live session, a system course (a programme). */
export const courseTypes = ['series', 'single', 'live', 'system'] as const
export type CourseType = (typeof courseTypes)[number]

const CourseSorts = ['default', 'new', 'hot', 'price_asc', 'price_desc'] as const
export type CourseSort = (typeof CourseSorts)[number]

const COURSE_LIST_MAX = 50

export const CourseListQuery = z.object({
  cate_id: OptionalIdQuery.describe('A category; a top category includes its sub-categories'),
  type: z
    .union([z.literal(''), z.enum(courseTypes)])
    .optional()
    .transform((v) => v || undefined)
    .describe('series, single, live or system'),
  sort: z
    .union([z.literal(''), z.enum(CourseSorts)])
    .optional()
    .transform((v): CourseSort => v || 'default')
    .describe('default (recommended order), new, hot, price_asc, price_desc'),
  vip_free: z
    .enum(['', '0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true')
    .describe('1: only courses that are free for VIP members'),
  cursor: z.string().max(200).optional().describe('next_cursor of the previous page'),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, '必须是 1–50 的整数')
    .optional()
    .transform((v) => (v === undefined ? 20 : Number(v)))
    .refine((n) => n >= 1 && n <= COURSE_LIST_MAX, `必须是 1–${COURSE_LIST_MAX} 的整数`)
    .describe(`Page size, 1–${COURSE_LIST_MAX}, default 20`),
})
export type CourseListQuery = z.output<typeof CourseListQuery>

export const CourseQuery = z.object({ id: IdQuery })
export const CourseTeacherQuery = z.object({ course_id: IdQuery })
export const TeacherQuery = z.object({ id: IdQuery })

// ---- Response pieces ---------------------------------------------------------------------------------------

/** The course as every list shows it (home sections, lists, a teacher's courses, a system course's parts). */
export const CourseCard = z.object({
  id: z.number().int(),
  type: z.enum(courseTypes),
  title: z.string(),
  subtitle: z.string(),
  cover: z.string().describe('Image URL, 16:9'),
  price_fen: Fen.describe('Price in fen (0.01 CNY)'),
  original_price_fen: Fen.nullable().describe('Crossed-out price, when there is one'),
  is_free: z.boolean(),
  vip_free: z.boolean().describe('Free for VIP members'),
  student_count: z.number().int(),
  teacher_name: z.string().nullable(),
  live_starts_at: z.string().nullable().describe('Live courses: ISO 8601 start time'),
})
export type CourseCard = z.infer<typeof CourseCard>

export const Teacher = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  avatar: z.string().nullable(),
  intro: z.string(),
})
export type Teacher = z.infer<typeof Teacher>

const VideoItem = z.object({
  id: z.number().int(),
  title: z.string(),
  duration: z.number().int().describe('Seconds'),
  is_free: z.boolean().describe('Anyone may watch the whole video'),
  free_seconds: z.number().int().describe('Seconds anyone may preview; 0 for none'),
})

const Chapter = z.object({
  id: z.number().int().describe('0 for the videos that belong to no chapter'),
  title: z.string(),
  videos: z.array(VideoItem),
})

export const LiveStatus = z.enum(['upcoming', 'live', 'ended'])

export const CourseDetail = z.object({
  id: z.number().int(),
  type: z.enum(courseTypes),
  title: z.string(),
  subtitle: z.string(),
  cover: z.string(),
  intro: z.string().describe('Plain text; paragraphs separated by a blank line'),
  price_fen: Fen,
  original_price_fen: Fen.nullable(),
  is_free: z.boolean(),
  points_price: z
    .number()
    .int()
    .nullable()
    .describe('Set when the course can be had for this many points (/course/creditPay/{id})'),
  vip_free: z.boolean(),
  level: z.enum(['beginner', 'intermediate', 'advanced']),
  tags: z.array(z.string()),
  student_count: z.number().int(),
  category_id: z.number().int(),
  category_name: z.string(),
  live_starts_at: z.string().nullable(),
  live_ends_at: z.string().nullable(),
  live_status: LiveStatus.nullable().describe('Live courses only'),
  video_count: z.number().int(),
  duration_seconds: z.number().int().describe('Sum of the video durations'),
  teacher: Teacher.nullable(),
  chapters: z.array(Chapter),
  sub_courses: z.array(CourseCard).describe('System courses: the courses they are made of, in order'),
})
export type CourseDetail = z.infer<typeof CourseDetail>

export const CourseList = z.object({
  list: z.array(CourseCard),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
})
export type CourseList = z.infer<typeof CourseList>

const CategoryLeaf = z.object({
  id: z.number().int(),
  name: z.string(),
  icon: z.string().nullable(),
  course_count: z.number().int(),
})

export const CategoryNode = CategoryLeaf.extend({ children: z.array(CategoryLeaf) })
export type CategoryNode = z.infer<typeof CategoryNode>

export const CategoryTree = z.object({ list: z.array(CategoryNode) })

export const TeacherProfile = Teacher.extend({
  course_count: z.number().int(),
  student_count: z.number().int(),
  courses: z.array(CourseCard),
})
export type TeacherProfile = z.infer<typeof TeacherProfile>

export const HotWords = z.object({ list: z.array(z.object({ id: z.number().int(), word: z.string() })) })
