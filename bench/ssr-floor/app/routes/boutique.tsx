import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { Cards } from '../markup.tsx'

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

export default function Boutique() {
  const { tree, first } = useLoaderData<typeof loader>()
  return (
    <main>
      <h1>分类</h1>
      <nav>
        {tree.map((t) => (
          <Link key={t.id} to={`?cate=${t.id}`}>
            {t.name}
          </Link>
        ))}
      </nav>
      {tree[0]?.children.map((c) => (
        <Link key={c.id} to={`?cate=${c.id}`}>
          {c.name}
        </Link>
      ))}
      <Cards courses={first.list} />
    </main>
  )
}
