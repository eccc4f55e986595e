import type { ReactNode } from 'react'
import { useLoaderData } from 'react-router'
import type { CourseList, CourseType } from '#shared/api/catalogue.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { CourseListScreen } from './course-list.tsx'

/** What `courseOfTypeOrList` (catalogue-loader.server.ts) answers: the list of one type, or one course of it. */
type ListOrCourse<C> = { kind: 'list'; list: CourseList } | { kind: 'course'; course: C }

interface CourseTypePage {
  /** The list's title bar and page title. */
  title: string
  type: CourseType
  /** The list's empty state. */
  empty: string
  /** What a course's page title adds to its name. */
  suffix: string
  /** What a missing course and the error state's title bar say (the title unless given). */
  named?: string
  /** A course's page shares its cover (og:image) unless false. */
  cover?: false
}

/** The routes for one course type and what each is called. */
const pages: Record<'live' | 'systemCourse' | 'systemGroup', CourseTypePage> = {
  live: { title: '直播课', type: 'live', empty: '近期没有直播课', suffix: ' - 直播' },
  systemCourse: { title: '体系课', type: 'system', empty: '暂时没有体系课', suffix: ' - 学习计划' },
  systemGroup: {
    title: '体系课学习群',
    type: 'system',
    empty: '暂时没有体系课',
    suffix: ' 学习群',
    named: '学习群',
    cover: false,
  },
}

/**
 * The screen, page title and error boundary of a route for one course type (/li, /course/systemCourse,
 * /course/systemGroup) whose loader is `courseOfTypeOrList`: without an id, the titled list of that type; with
 * one, `Course`. The route exports them (`export default screen.Screen`, `export const meta = screen.meta` …).
 */
export function courseTypeScreen<C extends { title: string; cover: string }>(
  which: keyof typeof pages,
  Course: (props: { course: C }) => ReactNode,
) {
  const page = pages[which]
  const named = page.named ?? page.title
  const titled = (title: string) => ({ title: `${title} - 自学` })

  function Screen() {
    const data = useLoaderData<ListOrCourse<C>>()
    if (data.kind === 'list')
      return <CourseListScreen title={page.title} first={data.list} type={page.type} emptyMessage={page.empty} />
    return <Course course={data.course} />
  }
  function meta({ loaderData }: { loaderData?: ListOrCourse<C> }) {
    if (!loaderData) return [titled(`${named}不存在`)]
    if (loaderData.kind === 'list') return [titled(page.title)]
    const { course } = loaderData
    const cover = page.cover === false ? [] : [{ property: 'og:image', content: course.cover }]
    return [titled(`${course.title}${page.suffix}`), ...cover]
  }
  function ErrorBoundary({ error }: { error: unknown }) {
    return <CatalogueError error={error} title={named} />
  }
  return { Screen, meta, ErrorBoundary }
}
