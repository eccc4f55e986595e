import { useEffect, useState } from 'react'
import { api } from '#app/lib/api.ts'
import { useAuth } from '#app/lib/use-auth.ts'
import type { SystemProgress } from '#server/modules/learning/learning.schema.ts'

export type { SystemProgress }

/** The member's progress in a system course (GET /api/system_course/progress); null when anonymous or loading. */
export function useSystemProgress(id: number): SystemProgress | null {
  const { token } = useAuth()
  const [state, setState] = useState<{ key: string; progress: SystemProgress } | null>(null)
  const key = `${token ?? ''}:${id}`
  useEffect(() => {
    if (!token) return
    const controller = new AbortController()
    api
      .get<SystemProgress>('/system_course/progress', { id }, { quiet: true, signal: controller.signal })
      .then((progress) => setState({ key, progress }))
      .catch(() => {})
    return () => controller.abort()
  }, [token, id, key])
  return state?.key === key ? state.progress : null
}
