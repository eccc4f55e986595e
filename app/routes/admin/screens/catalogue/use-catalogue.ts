import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type {
  AdminCategory,
  AdminChapter,
  AdminCourse,
  AdminTeacher,
  AdminVideo,
} from '#shared/api/catalogue-editing.ts'
import { api } from '../../lib/client.ts'

export type Category = z.output<typeof AdminCategory>
export type Teacher = z.output<typeof AdminTeacher>
export type Course = z.output<typeof AdminCourse>
export type Chapter = z.output<typeof AdminChapter>
/** A lesson (video) with its media state, as GET /admin/courses/:id answers it. */
export type Lesson = z.output<typeof AdminVideo> & {
  media: { status: string; progress: number; error: string | null; playable: boolean }
}
export type CourseDetail = Course & { chapters: Chapter[]; videos: Lesson[] }

/** Every category (GET /admin/categories), for the category screen and the course form's pickers. */
export function useCategories() {
  return useQuery({
    queryKey: ['catalogue', 'categories'],
    queryFn: () => api.get<{ list: Category[] }>('/admin/categories').then((r) => r.list),
  })
}

/** Every teacher (GET /admin/teachers). */
export function useTeachers() {
  return useQuery({
    queryKey: ['catalogue', 'teachers'],
    queryFn: () => api.get<{ list: Teacher[] }>('/admin/teachers').then((r) => r.list),
  })
}

/** The categories as a picker's options: sub-categories under their area ("设计 / 平面"). */
export function categoryOptions(list: Category[] = []) {
  const byId = new Map(list.map((c) => [c.id, c]))
  return list.map((c) => {
    const parent = c.parent_id === null ? undefined : byId.get(c.parent_id)
    return { value: c.id, label: parent ? `${parent.name} / ${c.name}` : c.name }
  })
}
