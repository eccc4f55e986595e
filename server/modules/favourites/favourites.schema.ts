import { z } from 'zod'
import { Fen } from '#shared/api/money.ts'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard } from '#shared/api/catalogue.ts'
import { BodyId, IdPageQuery, IdQuery } from '#shared/api/params.ts'

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
  ...IdPageQuery.shape,
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

const CourseFavState = z.object({ course_id: z.number().int(), favourited: z.boolean() })
const VideoFavState = z.object({ vid: z.number().int(), favourited: z.boolean() })

const FavVideo = z.object({
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
  owned: z
    .boolean()
    .describe('The member has bought the course (VIP opens, but does not own): the card shows 已购 without asking'),
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
  total_price_fen: Fen.describe('What they cost together, in fen'),
  original_total_fen: Fen.describe('The same at crossed-out prices, where a course has one'),
  course_ids: z.array(z.number().int()),
})
export type FavCalc = z.infer<typeof FavCalc>

const BatchCancelResult = z.object({ cancelled_courses: z.number().int(), cancelled_videos: z.number().int() })

export const CourseFavStateResponse = envelope(CourseFavState)
export const VideoFavStateResponse = envelope(VideoFavState)
export const FavListResponse = envelope(FavList)
export const FavCalcResponse = envelope(FavCalc)
export const BatchCancelResponse = envelope(BatchCancelResult)
