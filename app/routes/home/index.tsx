import { useLoaderData } from 'react-router'
import type { Route } from './+types/index'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { services } from '#app/lib/services-context.ts'
import { HomeFeedView, HomeHeader } from './home-feed.tsx'
import styles from './home.module.css'

export function meta() {
  return [
    { title: '自学 - 软件、设计、绘画自学课程' },
    { name: 'description', content: '自学：Photoshop、Excel、板绘、漫画、剪映、UI 设计等自学好课，零基础也能学会。' },
  ]
}

/** The home feed (GET /v3/index's data) and the first hot word for the search box, read on the server. */
export async function loader({ context }: Route.LoaderArgs) {
  const s = services(context)
  const [feed, hotWords] = await Promise.all([s.home.feed('v3'), s.catalogue.hotWords()])
  return { feed, hotWord: hotWords[0]?.word ?? null }
}

/** Home (tab): banners, category shortcuts and the course sections. */
export default function Home() {
  const { feed, hotWord } = useLoaderData<typeof loader>()
  return (
    <main className={styles.page}>
      <HomeHeader hotWord={hotWord} />
      <HomeFeedView feed={feed} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="首页" />
}
