import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { Cards } from '../markup.tsx'
import { SearchIcon } from '../icons.tsx'

export const meta = () => [{ title: '自学 - 软件、设计、绘画自学课程' }]

/** The same reads as the app's home page. */
export async function loader({ context }: LoaderFunctionArgs) {
  const s = services(context)
  const [feed, hotWords] = await Promise.all([s.home.feed('v3'), s.catalogue.hotWords()])
  return { feed, hotWord: hotWords[0]?.word ?? null }
}

/** What the app's home shows: the brand and search, banners, category shortcuts, course sections. */
export default function Home() {
  const { feed, hotWord } = useLoaderData<typeof loader>()
  return (
    <main>
      <header>
        自学
        <Link to="/search">
          <SearchIcon />
          {hotWord ? `大家都在搜：${hotWord}` : '搜索课程'}
        </Link>
      </header>
      {feed.sections.map((section) => {
        if (section.kind === 'banner' || section.kind === 'shortcuts')
          return (
            <nav key={section.id}>
              {section.items.map((item) => (
                <Link key={item.id} to={item.link ?? '/'}>
                  {item.image ? <img src={item.image} alt={section.kind === 'banner' ? item.title : ''} /> : null}
                  {section.kind === 'shortcuts' ? item.title : null}
                </Link>
              ))}
              {section.kind === 'banner' ? section.items.map((item) => <i key={item.id} />) : null}
            </nav>
          )
        return (
          <section key={section.id}>
            <h2>{section.title}</h2>
            {section.subtitle}
            {section.more_link ? <Link to={section.more_link}>更多 ›</Link> : null}
            <Cards courses={section.courses} ranked={section.kind === 'ranking'} tiles={section.kind === 'grid'} />
          </section>
        )
      })}
      <p>— 已经到底了 —</p>
    </main>
  )
}
