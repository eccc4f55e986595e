import type { Db } from '#server/db/database.ts'
import { AppError } from '#server/http/app-error.ts'
import { Codes } from '#server/http/codes.ts'
import type { CommentsService, Viewer } from '#server/modules/comments/comments.service.ts'
import { soldOn } from '#server/modules/exchange/exchange.service.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'

/** What the Kuaishou landing reads (server/services.ts binds them): the catalogue's course page and the comments. */
export interface KuaishouCourseDeps {
  db: Db
  courseDetail: (id: number) => Promise<CourseDetail>
  comments: Pick<CommentsService, 'newest'>
}

/** A course is on sale on Kuaishou when an operator mapped a Kuaishou shop SKU to it; otherwise it is a 404. */
async function requireOnKuaishou(db: Db, courseId: number) {
  if (!(await soldOn(db, 'kuaishou', courseId)))
    throw new AppError(Codes.NotFound, '这门课程没有在快手小店销售', { field: 'course_id' })
}

/** The course of the /course/ks/{id} landing page: a published course with a Kuaishou SKU, else a 404. */
export async function readKuaishouCourse(deps: KuaishouCourseDeps, courseId: number) {
  const [course] = await Promise.all([deps.courseDetail(courseId), requireOnKuaishou(deps.db, courseId)])
  return course
}

/**
 * GET /ksxd/course/comments: one page of the course's comments, newest first (the landing page's list), for a
 * published course on sale on Kuaishou; any other course is a 404.
 */
export async function listKuaishouComments(
  deps: KuaishouCourseDeps,
  viewer: Viewer,
  q: { course_id: number; cursor: number | undefined; limit: number },
) {
  await readKuaishouCourse(deps, q.course_id)
  return deps.comments.newest(viewer, q.course_id, q.cursor, q.limit)
}
