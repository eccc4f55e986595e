import { useApiGet } from '#app/lib/use-api-get.ts'
import type { SystemProgress } from '#server/modules/learning/learning.schema.ts'

export type { SystemProgress }

/** The member's progress in a system course (GET /api/system_course/progress); null when anonymous or loading. */
export function useSystemProgress(id: number): SystemProgress | null {
  return useApiGet<SystemProgress>('/system_course/progress', { member: true, query: { id } }).data
}
