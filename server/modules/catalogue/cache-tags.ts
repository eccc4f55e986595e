import type { CourseBody } from './course-page.ts'

// The tags the catalogue's cached reads carry and its writes name (server/http/public-cache.ts `invalidate`).

/** Any write to a course, its category or its teacher may move it in or out of any page of any list. */
export const COURSE_LISTS_TAG = 'course-lists'

/** Search pages: a rebuilt search document (a title, a lesson, a count, a course published or withdrawn) drops them. */
export const SEARCH_TAG = 'search'

/** What a course page shows of other rows: its teacher, its category and, for a system course, its courses. */
export const courseTags = (c: CourseBody) => [
  `course:${c.id}`,
  `category:${c.category_id}`,
  ...(c.teacher ? [`teacher:${c.teacher.id}`] : []),
  ...c.sub_courses.map((s) => `course:${s.id}`),
]
