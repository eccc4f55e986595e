import { useEffect, useState } from 'react'
import { api } from '#app/lib/api.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { CourseAccess } from '#server/modules/learning/learning.schema.ts'

export type { CourseAccess }

/**
 * What this visitor may do with a course (GET /api/course/access): watch all of it, try it, or nothing yet; where
 * to start or continue. Asked in the browser after hydration, with the token when there is one; null until it
 * answers (or when it fails: the page then keeps its neutral state).
 */
export function useCourseAccess(courseId: number): CourseAccess | null {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [state, setState] = useState<{ key: string; access: CourseAccess } | null>(null)
  const key = `${token ?? ''}:${courseId}`

  useEffect(() => {
    if (!hydrated) return
    const controller = new AbortController()
    api
      .get<CourseAccess>('/course/access', { course_id: courseId }, { quiet: true, signal: controller.signal })
      .then((access) => setState({ key, access }))
      .catch(() => {})
    return () => controller.abort()
  }, [hydrated, courseId, key])

  return state?.key === key ? state.access : null
}
