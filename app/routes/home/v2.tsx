import { useLoaderData } from 'react-router'
import type { Route } from './+types/v2'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { services } from '#app/lib/services-context.ts'
import { HomeFeedView, HomeHeader } from './home-feed.tsx'
import styles from './home.module.css'

export function meta() {
  return [
    { title: '自学 - 精品课程' },
    { name: 'description', content: '自学精品课程：软件、办公、绘画插画、漫画、视频剪辑和设计。' },
  ]
}

/** The simpler home feed of /index1 (GET /v2/index's data). */
export async function loader({ context }: Route.LoaderArgs) {
  const s = services(context)
  const [feed, hotWords] = await Promise.all([s.home.feed('v2'), s.catalogue.hotWords()])
  return { feed, hotWord: hotWords[0]?.word ?? null }
}

/** The alternate home layout at /index1: banners, shortcuts and featured courses, without the tab bar. */
export default function HomeV2() {
  const { feed, hotWord } = useLoaderData<typeof loader>()
  return (
    <main className={styles.page}>
      <HomeHeader hotWord={hotWord} />
      <HomeFeedView feed={feed} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <CatalogueError error={error} title="自学" />
}
