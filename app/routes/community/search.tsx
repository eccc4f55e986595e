import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/search'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { searchHref, SearchBox } from '#app/components/search-box/search-box.tsx'
import { addToHistory, clearHistory, useSearchHistory } from '#app/components/search-box/search-history.ts'
import { Section } from '#app/components/section/section.tsx'
import { services } from '#app/lib/services-context.ts'
import styles from './community.module.css'

/** The hot words are public: read on the server, with the page. */
export async function loader({ context }: Route.LoaderArgs) {
  return { hotWords: await services(context).catalogue.hotWords() }
}

export function meta() {
  return [{ title: '搜索课程 - 自学' }, { name: 'description', content: '搜索自学的课程、老师和分类。' }]
}

/** Keyword chips that run a search (and go into the history). */
export function WordChips({ words, label }: { words: string[]; label: string }) {
  return (
    <ul className={styles.chips} aria-label={label}>
      {words.map((w) => (
        <li key={w}>
          <Link to={searchHref(w)} className={styles.chip} onClick={() => addToHistory(w)}>
            {w}
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** /search: the search box, this browser's recent searches (with clear) and the hot words. */
export default function SearchPage() {
  const { hotWords } = useLoaderData<typeof loader>()
  const history = useSearchHistory()
  return (
    <main className={styles.page}>
      <NavBar title="搜索" />
      <SearchBox autoFocus />
      {history.length > 0 ? (
        <Section
          id="history-title"
          title={
            <>
              搜索历史
              <button type="button" className={styles.textButton} onClick={() => clearHistory()}>
                清空
              </button>
            </>
          }
          className={styles.block}
          titleClassName={styles.blockTitle}
        >
          <WordChips words={history} label="搜索历史" />
        </Section>
      ) : null}
      <Section id="hot-title" title="热门搜索" className={styles.block} titleClassName={styles.blockTitle}>
        {hotWords.length > 0 ? (
          <WordChips words={hotWords.map((w) => w.word)} label="热门搜索" />
        ) : (
          <p className={styles.muted}>暂时没有热门搜索</p>
        )}
      </Section>
    </main>
  )
}
