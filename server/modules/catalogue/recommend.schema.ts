import { z } from 'zod'
import { envelope } from '#server/http/envelope.ts'
import { CourseCard } from '#shared/api/catalogue.ts'
import { pageLimit } from '#shared/api/params.ts'

const RECOMMEND_MAX = 30

export const RecommendQuery = z.object({ limit: pageLimit(RECOMMEND_MAX, 10) })

export const CourseCardList = z.object({
  list: z.array(CourseCard),
  personalised: z
    .boolean()
    .describe('False when the list is only the popular courses (anonymous, or nothing to go on yet)'),
})
export type CourseCardList = z.infer<typeof CourseCardList>

export const CourseCardListResponse = envelope(CourseCardList)
