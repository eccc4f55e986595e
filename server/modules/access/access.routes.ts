import { apiPlugin } from '#server/http/route.ts'
import { envelope } from '#server/http/envelope.ts'
import { CourseAccessWhy, CourseAccessWhyQuery } from '#shared/api/access-why.ts'

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
      querystring: CourseAccessWhyQuery,
      response: envelope(CourseAccessWhy),
    },
    async (request, memberId) => explainCourse(memberId, request.query.course_id),
  )
})
