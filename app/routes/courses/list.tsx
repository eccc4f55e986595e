import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/list'
import { notFound, orNotFound, parseId } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { usePendingHere } from '#app/components/course-data/use-pending.ts'
import { PagedCourseList } from '#app/components/course-list/course-list.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Loading } from '#app/components/page-state/page-state.tsx'
import { services } from '#app/lib/services-context.ts'
import { readFilters } from './course-filters.ts'
import { FilterBar } from './filter-bar.tsx'
import styles from './courses.module.css'

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.category?.name
  return [
    { title: name ? `${name}课程 - 自学` : '课程列表 - 自学' },
    { name: 'description', content: name ? `自学「${name}」分类下的全部课程。` : '自学全部课程。' },
  ]
}

/**
 * The courses of one category (/list/{id}; a top category includes its sub-categories), or of all categories
 * without an id. An unknown or malformed id is a 404.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const catalogue = services(context).catalogue
  const { sort } = readFilters(new URL(request.url).searchParams)
  let category: Awaited<ReturnType<typeof catalogue.category>> = null
  let siblings: { id: number; name: string }[] = []
  if (params.id !== undefined) {
    const id = parseId(params.id)
    if (id === null) notFound('分类不存在')
    category = await catalogue.category(id)
    if (!category) notFound('分类不存在')
    const tree = await catalogue.categoryTree()
    const top = tree.find((t) => t.id === (category?.parent?.id ?? category?.id))
    siblings = top ? top.children.map((c) => ({ id: c.id, name: c.name })) : []
  }
  const first = await orNotFound(() =>
    catalogue.courseList({ cate_id: category?.id, sort, limit: 20, type: undefined, cursor: undefined }),
  )
  return { category, siblings, sort, first }
}

/** One category's courses, with its sub-categories as chips and the sort order. */
export default function CategoryList() {
  const { category, siblings, sort, first } = useLoaderData<typeof loader>()
  const pending = usePendingHere()
  const topId = category?.parent?.id ?? category?.id
  const chipClass = (active: boolean) => (active ? `${styles.chip} ${styles.chipActive}` : styles.chip)
  return (
    <main className={styles.page}>
      <NavBar title={category ? category.name : '全部课程'} backTo="/boutique" />
      {category && siblings.length > 0 ? (
        <nav className={styles.chipRow} aria-label="子分类">
          <Link to={`/list/${topId}`} replace className={chipClass(category.id === topId)}>
            全部
          </Link>
          {siblings.map((c) => (
            <Link key={c.id} to={`/list/${c.id}`} replace className={chipClass(category.id === c.id)}>
              {c.name}
            </Link>
          ))}
        </nav>
      ) : null}
      <FilterBar type={undefined} sort={sort} showType={false} />
      <section aria-busy={pending} className={styles.list}>
        {pending ? (
          <Loading />
        ) : (
          <PagedCourseList
            key={`${category?.id ?? 0}-${sort}`}
            first={first}
            filter={{ cate_id: category?.id, sort }}
            emptyMessage="这个分类下还没有课程"
          />
        )}
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="课程列表" />
}
