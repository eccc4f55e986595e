import type { ReactNode } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/index'
import { parseId } from '#app/components/course-data/catalogue-loader.server.ts'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { usePendingHere } from '#app/components/course-data/use-pending.ts'
import { PagedCourseList } from '#app/components/course-list/course-list.tsx'
import { Empty, Loading } from '#app/components/page-state/page-state.tsx'
import { services } from '#app/lib/services-context.ts'
import { cardFields } from '#app/components/course-card/card-fields.ts'
import styles from './category.module.css'
import { SearchEntry } from '#app/components/search-box/search-entry.tsx'

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.selectedName
  return [
    { title: name ? `${name} - 课程分类 - 自学` : '课程分类 - 自学' },
    { name: 'description', content: '按分类浏览自学课程：软件、办公、绘画插画、漫画、视频剪辑、设计。' },
  ]
}

/**
 * The category tree and the first page of the selected category's courses. `?cate=` selects a top category or a
 * sub-category (an overlay's category jump lands here too); an unknown one falls back to the first category.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const catalogue = services(context).catalogue
  const tree = await catalogue.categoryTree()
  const requested = parseId(new URL(request.url).searchParams.get('cate'))
  let top = tree[0] ?? null
  let subId: number | null = null
  if (requested !== null) {
    for (const t of tree) {
      if (t.id === requested) top = t
      const child = t.children.find((c) => c.id === requested)
      if (child) {
        top = t
        subId = child.id
      }
    }
  }
  const selectedId = subId ?? top?.id ?? null
  const first =
    selectedId === null
      ? { list: [], next_cursor: null }
      : await catalogue.courseList({
          cate_id: selectedId,
          sort: 'default',
          limit: 20,
          type: undefined,
          cursor: undefined,
        })
  const selectedName = subId ? top?.children.find((c) => c.id === subId)?.name : top?.name
  // Only what the screen shows goes into the page's data (serialised into the HTML on every render): the rail's
  // and chips' names, and the cards' fields.
  return {
    tree: tree.map((t) => ({ id: t.id, name: t.name, children: t.children.map((c) => ({ id: c.id, name: c.name })) })),
    topId: top?.id ?? null,
    subId,
    selectedId,
    selectedName: selectedName ?? null,
    first: { list: first.list.map(cardFields), next_cursor: first.next_cursor },
  }
}

/** A link to one category (`?cate=`), replacing the URL in place: no new history entry, no jump to the top. */
function CategoryLink({
  id,
  ...props
}: {
  id: number
  className?: string
  children: ReactNode
  'aria-current'?: 'page'
}) {
  return <Link to={`?cate=${id}`} replace preventScrollReset {...props} />
}

/** Category (tab): the subject areas on a left rail, the chosen area's sub-categories and courses on the right. */
export default function Boutique() {
  const { tree, topId, subId, selectedId, first } = useLoaderData<typeof loader>()
  const pending = usePendingHere()
  const top = tree.find((t) => t.id === topId)

  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.heading}>分类</h1>
        <SearchEntry>搜索课程</SearchEntry>
      </header>
      {tree.length === 0 ? (
        <Empty message="还没有课程分类" />
      ) : (
        <div className={styles.body}>
          <nav className={styles.rail} aria-label="课程分类">
            {tree.map((t) => (
              <CategoryLink
                key={t.id}
                id={t.id}
                className={t.id === topId ? `${styles.railItem} ${styles.railActive}` : styles.railItem}
                aria-current={t.id === topId ? 'page' : undefined}
              >
                {t.name}
              </CategoryLink>
            ))}
          </nav>
          <section className={styles.pane} aria-busy={pending} aria-label={top ? `${top.name}课程` : undefined}>
            {top && top.children.length > 0 ? (
              <div className={styles.chips}>
                {[{ id: top.id, name: '全部' }, ...top.children].map((c) => (
                  <CategoryLink
                    key={c.id}
                    id={c.id}
                    className={c.id === (subId ?? top.id) ? `${styles.chip} ${styles.chipActive}` : styles.chip}
                  >
                    {c.name}
                  </CategoryLink>
                ))}
              </div>
            ) : null}
            {pending ? (
              <Loading />
            ) : (
              <PagedCourseList
                key={selectedId ?? 0}
                first={first}
                filter={{ cate_id: selectedId ?? undefined }}
                emptyMessage="这个分类下还没有课程"
                compact
              />
            )}
          </section>
        </div>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="分类" noBack />
}
