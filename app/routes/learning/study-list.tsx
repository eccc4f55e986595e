import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { Empty, ListEnd, Loaded } from '#app/components/page-state/page-state.tsx'
import type { Fetched } from '#app/lib/use-api-get.ts'
import styles from './study.module.css'

/**
 * A member's study list (/ke1, /studyRecord, /ke3): the login prompt for a visitor, loading and error, the empty
 * state with places to go (the first is the main one), or the entries (`children` draws one) and, for a paged
 * list, its foot.
 */
export function StudyList<T>({
  of,
  login,
  label,
  empty,
  children,
}: {
  of: {
    state: Fetched<{ list: T[]; next_cursor?: string | null }>
    retry: () => void
    more?: 'idle' | 'loading' | 'error'
    loadMore?: () => void
  }
  login: { reason: string; target: string }
  label: string
  empty: { message: string; links: { to: string; label: string }[] }
  children: (item: T) => ReactNode
}) {
  return (
    <MemberOnly {...login} known={of.state.status === 'ready'}>
      <Loaded of={of}>
        {(page) =>
          page.list.length === 0 ? (
            <div className={styles.emptyBox}>
              <Empty message={empty.message} />
              {empty.links.map((l, i) => (
                <Link key={l.to} to={l.to} className={i === 0 ? styles.primaryLink : styles.secondaryLink}>
                  {l.label}
                </Link>
              ))}
            </div>
          ) : (
            <>
              <ul className={styles.list} aria-label={label}>
                {page.list.map(children)}
              </ul>
              {of.loadMore ? <ListEnd hasMore={page.next_cursor != null} state={of.more} onMore={of.loadMore} /> : null}
            </>
          )
        }
      </Loaded>
    </MemberOnly>
  )
}
