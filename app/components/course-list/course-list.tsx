import type { CourseList, CourseListQuery, CourseType } from '#shared/api/catalogue.ts'
import { Empty, ListEnd } from '#app/components/page-state/page-state.tsx'
import { CourseRow } from '#app/components/course-card/course-card.tsx'
import type { CardFields } from '#app/components/course-card/card-fields.ts'
import { api } from '#app/lib/api.ts'
import { uniqueById, useMorePages } from '#app/lib/use-more-pages.ts'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import styles from './course-list.module.css'

/** The filter part of GET /v2/course_list's query that a list keeps while it loads more. */
export type CourseListFilter = Partial<Pick<CourseListQuery, 'cate_id' | 'type' | 'sort'>>

const PAGE_SIZE = 20

/**
 * A server-rendered first page of courses with "load more" (GET /v2/course_list with the page's cursor). Give it
 * a `key` that changes with the filter, so a new filter starts from its own first page.
 */
export function PagedCourseList({
  first,
  filter,
  emptyMessage,
  eagerCount = 3,
  compact = false,
}: {
  /** The first page (its cards may carry only what a card shows: CardFields). */
  first: { list: CardFields[]; next_cursor: string | null }
  filter: CourseListFilter
  emptyMessage: string
  eagerCount?: number
  /** Narrow rows (the category screen's right pane). */
  compact?: boolean
}) {
  const pages = useMorePages<CardFields>(first, (cursor) =>
    api.get<CourseList>('/v2/course_list', { ...filter, cursor, limit: PAGE_SIZE }, { quiet: true }),
  )
  const all = uniqueById(pages.list)
  if (all.length === 0) return <Empty message={emptyMessage} />

  return (
    <>
      <ul className={styles.list}>
        {all.map((course, i) => (
          <li key={course.id} className={styles.item}>
            <CourseRow course={course} eager={i < eagerCount} compact={compact} />
          </li>
        ))}
      </ul>
      <ListEnd hasMore={pages.cursor !== null} state={pages.status} onMore={pages.loadMore} />
    </>
  )
}

/** A whole screen listing one type of course (/li, /course/systemCourse without an id): title bar and the list. */
export function CourseListScreen({
  title,
  type,
  first,
  emptyMessage,
}: {
  title: string
  type: CourseType
  first: CourseList
  emptyMessage: string
}) {
  return (
    <main className={styles.screen}>
      <NavBar title={title} />
      <PagedCourseList first={first} filter={{ type }} emptyMessage={emptyMessage} />
    </main>
  )
}
