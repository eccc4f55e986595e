import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { Cards } from '../markup.tsx'

export const meta = () => [{ title: '自学 - 软件、设计、绘画自学课程' }]

/** The same reads as the app's home page. */
export async function loader({ context }: LoaderFunctionArgs) {
  const s = services(context)
  const [feed, hotWords] = await Promise.all([s.home.feed('v3'), s.catalogue.hotWords()])
  return { feed, hotWord: hotWords[0]?.word ?? null }
}

export default function Home() {
  const { feed, hotWord } = useLoaderData<typeof loader>()
  return (
    <main>
      <Link to="/search">大家都在搜：{hotWord}</Link>
      {feed.sections.map((section) => (
        <section key={section.id}>
          <h2>{section.title}</h2>
          {section.items.map((item) => (
            <Link key={item.id} to={item.link ?? '/'}>
              {item.image ? <img src={item.image} alt={item.title} /> : item.title}
            </Link>
          ))}
          <Cards courses={section.courses} />
        </section>
      ))}
    </main>
  )
}
