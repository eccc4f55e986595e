import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { Cards } from '../markup.tsx'
import { SearchIcon } from '../icons.tsx'

export const meta = () => [{ title: '课程分类 - 自学' }]

/** The same reads as the app's category page without `?cate=`: the tree and the first category's first page. */
export async function loader({ context }: LoaderFunctionArgs) {
  const catalogue = services(context).catalogue
  const tree = await catalogue.categoryTree()
  const top = tree[0]
  const first = top
    ? await catalogue.courseList({ cate_id: top.id, sort: 'default', limit: 20, type: undefined, cursor: undefined })
    : { list: [], next_cursor: null }
  return { tree, first }
}

/** What the app's category tab shows: the heading and search, the categories, the first one's courses. */
export default function Boutique() {
  const { tree, first } = useLoaderData<typeof loader>()
  const top = tree[0]
  return (
    <main>
      <h1>分类</h1>
      <Link to="/search">
        <SearchIcon />
        搜索课程
      </Link>
      <nav>
        {tree.map((t) => (
          <Link key={t.id} to={`?cate=${t.id}`}>
            {t.name}
          </Link>
        ))}
      </nav>
      {top ? <Link to={`?cate=${top.id}`}>全部</Link> : null}
      {top?.children.map((c) => (
        <Link key={c.id} to={`?cate=${c.id}`}>
          {c.name}
        </Link>
      ))}
      <Cards courses={first.list} />
      {first.next_cursor ? null : <p>没有更多了</p>}
    </main>
  )
}
