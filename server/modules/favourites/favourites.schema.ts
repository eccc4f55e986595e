import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard, IdQuery } from '#server/modules/catalogue/catalogue.schema.ts'

const MAX_INT = 2_147_483_647

/** A positive id in a JSON body: a number, or a numeric string as older clients send. */
export const BodyId = z
  .union([
    z.number().int().min(1).max(MAX_INT),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/, '必须是正整数')
      .transform(Number),
  ])
  .refine((n) => n <= MAX_INT, '超出范围')

/** The cursor of an id-ordered list: the last id of the previous page, as text. */
export const IdCursor = z
  .union([z.literal(''), z.string().regex(/^[1-9]\d{0,9}$/, '格式不正确')])
  .optional()
  .transform((v) => (v ? Number(v) : undefined))
  .describe('next_cursor of the previous page')

export function pageLimit(max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d{1,3}$/, `必须是 1–${max} 的整数`)
    .optional()
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => n >= 1 && n <= max, `必须是 1–${max} 的整数`)
    .describe(`Page size, 1–${max}, default ${fallback}`)
}

export const BATCH_MAX = 100

export const CourseFavBody = z.object({ course_id: BodyId })
export const VideoFavBody = z.object({ vid: BodyId })
export const CourseFavQuery = z.object({ course_id: IdQuery })
export const VideoFavQuery = z.object({ vid: IdQuery })

export const FavListQuery = z.object({
  type: z
    .union([z.literal(''), z.enum(['course', 'video'])])
    .optional()
    .transform((v): 'course' | 'video' => v || 'course')
    .describe('course (default) or video'),
  cursor: IdCursor,
  limit: pageLimit(50, 20),
})
export type FavListQuery = z.output<typeof FavListQuery>

export const BatchCancelBody = z
  .object({
    course_ids: z.array(BodyId).max(BATCH_MAX).optional().describe(`Up to ${BATCH_MAX} course ids`),
    vids: z.array(BodyId).max(BATCH_MAX).optional().describe(`Up to ${BATCH_MAX} video ids`),
  })
  .refine((b) => (b.course_ids?.length ?? 0) + (b.vids?.length ?? 0) > 0, {
    message: '请选择要取消收藏的内容',
    path: ['course_ids'],
  })

export const CourseFavState = z.object({ course_id: z.number().int(), favourited: z.boolean() })
export const VideoFavState = z.object({ vid: z.number().int(), favourited: z.boolean() })

export const FavVideo = z.object({
  id: z.number().int(),
  title: z.string(),
  duration: z.number().int().describe('Seconds'),
  is_free: z.boolean(),
  free_seconds: z.number().int(),
})

export const FavItem = z.object({
  fav_id: z.number().int(),
  created_at: z.string(),
  course: CourseCard.describe('The course, or for a video the course it belongs to'),
  video: FavVideo.nullable().describe('Video favourites only'),
})
export type FavItem = z.infer<typeof FavItem>

export const FavList = z.object({
  type: z.enum(['course', 'video']),
  list: z.array(FavItem),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
})
export type FavList = z.infer<typeof FavList>

export const FavCalc = z.object({
  count: z.number().int().describe('Favourited paid courses the member does not own yet'),
  total_price_fen: z.number().int().describe('What they cost together, in fen'),
  original_total_fen: z.number().int().describe('The same at crossed-out prices, where a course has one'),
  course_ids: z.array(z.number().int()),
})
export type FavCalc = z.infer<typeof FavCalc>

export const BatchCancelResult = z.object({ cancelled_courses: z.number().int(), cancelled_videos: z.number().int() })

export const CourseFavStateResponse = envelope(CourseFavState)
export const VideoFavStateResponse = envelope(VideoFavState)
export const FavListResponse = envelope(FavList)
export const FavCalcResponse = envelope(FavCalc)
export const BatchCancelResponse = envelope(BatchCancelResult)
