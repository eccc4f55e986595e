import { useLoaderData } from 'react-router'
import type { Route } from './+types/index'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { usePendingHere } from '#app/components/course-data/use-pending.ts'
import { PagedCourseList } from '#app/components/course-list/course-list.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Loading } from '#app/components/page-state/page-state.tsx'
import { services } from '#app/lib/services-context.ts'
import { readFilters } from './course-filters.ts'
import { FilterBar } from './filter-bar.tsx'
import styles from './courses.module.css'

export function meta() {
  return [
    { title: '全部课程 - 自学' },
    { name: 'description', content: '自学全部课程：系列课、单课、直播课和系统班，按最新、最热或价格排序。' },
  ]
}

/** The first page of all published courses for the chosen type (?type=) and order (?sort=). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { type, sort } = readFilters(new URL(request.url).searchParams)
  const first = await services(context).catalogue.courseList({
    type,
    sort,
    limit: 20,
    cate_id: undefined,
    cursor: undefined,
  })
  return { type: type ?? null, sort, first }
}

/** All courses, with type and sort chips and "load more". */
export default function AllCourses() {
  const { type, sort, first } = useLoaderData<typeof loader>()
  const pending = usePendingHere()
  return (
    <main className={styles.page}>
      <NavBar title="全部课程" />
      <FilterBar type={type ?? undefined} sort={sort} />
      <section aria-busy={pending} className={styles.list}>
        {pending ? (
          <Loading />
        ) : (
          <PagedCourseList
            key={`${type}-${sort}`}
            first={first}
            filter={{ type: type ?? undefined, sort }}
            emptyMessage="没有符合条件的课程"
          />
        )}
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="全部课程" />
}
