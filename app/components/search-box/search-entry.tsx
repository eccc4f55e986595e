import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { SearchIcon } from '#app/components/icons/line-icons.tsx'
import styles from './search-entry.module.css'

/** The search pill of the home and category headers: a link to /search showing `children` (a hint). */
export function SearchEntry({ children }: { children: ReactNode }) {
  return (
    <Link to="/search" className={styles.entry} aria-label="搜索课程">
      <SearchIcon size={16} />
      {children}
    </Link>
  )
}
