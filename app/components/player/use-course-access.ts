import { useApiGet } from '#app/lib/use-api-get.ts'
import type { CourseAccess } from '#server/modules/learning/learning.schema.ts'

export type { CourseAccess }

/**
 * What this visitor may do with a course (GET /api/course/access): watch all of it, try it, or nothing yet; where
 * to start or continue. Asked in the browser after hydration, with the token when there is one; null until it
 * answers (or when it fails: the page then keeps its neutral state).
 */
export function useCourseAccess(courseId: number): CourseAccess | null {
  return useApiGet<CourseAccess>('/course/access', { query: { course_id: courseId } }).data
}
