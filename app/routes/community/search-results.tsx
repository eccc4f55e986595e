import { useEffect } from 'react'
import { ListEnd } from '#app/components/page-state/page-state.tsx'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/search-results'
import type { SearchResult } from '#server/modules/catalogue/search.schema.ts'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { SearchBox } from '#app/components/search-box/search-box.tsx'
import { addToHistory, normaliseKeyword } from '#app/components/search-box/search-history.ts'
import { SearchResultRow } from '#app/components/search-box/search-result-row.tsx'
import { api } from '#app/lib/api.ts'
import { uniqueById, useMorePages } from '#app/lib/use-more-pages.ts'
import { services } from '#app/lib/services-context.ts'
import { WordChips } from './search.tsx'
import styles from './community.module.css'

const PAGE = 20

/** The first page of results is public and rendered on the server; the hot words fill the empty state. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const keyword = normaliseKeyword(new URL(request.url).searchParams.get('keyword'))
  const s = services(context)
  const [result, hotWords] = await Promise.all([
    keyword ? s.search.search({ keyword, limit: PAGE }) : Promise.resolve(null),
    s.catalogue.hotWords(),
  ])
  return { keyword, result, hotWords: hotWords.map((w) => w.word) }
}

export function meta({ loaderData }: Route.MetaArgs) {
  const k = loaderData?.keyword
  return [{ title: k ? `${k} - 搜索 - 自学` : '搜索 - 自学' }, { name: 'robots', content: 'noindex' }]
}

function Results({ first, hotWords }: { first: SearchResult; hotWords: string[] }) {
  const pages = useMorePages(first, (cursor) =>
    api.get<SearchResult>('/searchCourse', { keyword: first.keyword, cursor, limit: PAGE }, { quiet: true }),
  )
  const all = uniqueById(pages.list)
  if (all.length === 0) {
    return (
      <div className={styles.empty} data-testid="search-empty">
        <p className={styles.emptyTitle}>没有找到相关课程</p>
        <p className={styles.muted}>换个关键词试试，比如：</p>
        <WordChips words={hotWords.slice(0, 10)} label="热门搜索" />
        <Link to="/boutique" className={styles.linkButton}>
          按分类找课程
        </Link>
      </div>
    )
  }
  return (
    <>
      {first.corrected && (
        <p className={styles.corrected} data-testid="search-corrected">
          没有找到“{first.keyword}”的结果，已为你搜索 <strong>{first.corrected}</strong>
        </p>
      )}
      <ul className="zx-dividedList" aria-label={`“${first.corrected ?? first.keyword}”的搜索结果`}>
        {all.map((hit, i) => (
          <li key={hit.id}>
            <SearchResultRow hit={hit} eager={i < 3} />
          </li>
        ))}
      </ul>
      <ListEnd hasMore={pages.cursor !== null} state={pages.status} onMore={pages.loadMore} />
    </>
  )
}

/** /searchCourse?keyword=…: results with the words highlighted, or the empty state with hot words. */
export default function SearchResults() {
  const { keyword, result, hotWords } = useLoaderData<typeof loader>()

  // Arriving from a shared link or a hot word counts as a search too.
  useEffect(() => {
    if (keyword) addToHistory(keyword)
  }, [keyword])

  return (
    <main className={styles.page}>
      <NavBar title="搜索结果" backTo="/search" />
      <SearchBox key={keyword} initial={keyword} />
      <div className={styles.results}>
        {result ? (
          <Results key={keyword} first={result} hotWords={hotWords} />
        ) : (
          <div className={styles.empty}>
            <p className={styles.emptyTitle}>输入关键词搜索课程</p>
            <WordChips words={hotWords.slice(0, 10)} label="热门搜索" />
          </div>
        )}
      </div>
    </main>
  )
}
