import { useLoaderData, useLocation } from 'react-router'
import type { Route } from './+types/index'
import { CatalogueError } from '#app/components/course-data/catalogue-error.tsx'
import { services } from '#app/lib/services-context.ts'
import { cardFields } from '#app/components/course-card/card-fields.ts'
import { HomeFeedView, HomeHeader } from './home-feed.tsx'
import styles from './home.module.css'

/**
 * Two URLs show this screen (app/routes.ts): "/" the home tab with the GET /v3/index feed, "/index1" the
 * alternate layout with the simpler GET /v2/index feed, without the tab bar. Only the feed and the words differ.
 */
const PAGES = {
  v3: {
    title: '自学 - 软件、设计、绘画自学课程',
    description: '自学：Photoshop、Excel、板绘、漫画、剪映、UI 设计等自学好课，零基础也能学会。',
    errorTitle: '首页',
  },
  v2: {
    title: '自学 - 精品课程',
    description: '自学精品课程：软件、办公、绘画插画、漫画、视频剪辑和设计。',
    errorTitle: '自学',
  },
} as const

/** Which feed a path shows: v2 at /index1, v3 at "/". */
function feedAt(pathname: string): keyof typeof PAGES {
  return /^\/index1\/?$/i.test(pathname) ? 'v2' : 'v3'
}

export function meta({ location }: Route.MetaArgs) {
  const page = PAGES[feedAt(location.pathname)]
  return [{ title: page.title }, { name: 'description', content: page.description }]
}

/** The home feed of this URL and the first hot word for the search box, read on the server. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const s = services(context)
  const name = feedAt(new URL(request.url).pathname)
  const [feed, hotWords] = await Promise.all([s.home.feed(name), s.catalogue.hotWords()])
  // Only what the cards show goes into the page's data (serialised into the HTML on every render).
  const sections = feed.sections.map((section) => ({ ...section, courses: section.courses.map(cardFields) }))
  return { feed: { sections }, hotWord: hotWords[0]?.word ?? null }
}

/** Home: banners, category shortcuts and the course sections. */
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
  const { pathname } = useLocation()
  return <CatalogueError error={error} title={PAGES[feedAt(pathname)].errorTitle} />
}
