import { apiPlugin } from '#server/http/route.ts'
import { CourseIdQuery } from '#server/modules/learning/learning.schema.ts'
import { CourseAccessWhyResponse, type CourseAccessWhy } from './access.schema.ts'

export interface AccessRoutesOptions {
  /** explain-course-access.ts, bound. */
  explainCourse: (memberId: number, courseId: number) => Promise<CourseAccessWhy>
}

/** The member's side of the access function: why they have a course, or no longer have it. */
export const accessRoutes = apiPlugin({ tags: ['access'] }, (r, { explainCourse }: AccessRoutesOptions) => {
  r.get(
    '/course/access/why',
    {
      summary:
        'Which grants give the member this course (purchase, VIP, redeem code, platform order…), which were taken back and why',
      auth: 'required',
      querystring: CourseIdQuery,
      response: CourseAccessWhyResponse,
    },
    async (request, memberId) => explainCourse(memberId, request.query.course_id),
  )
})
