import { Link } from 'react-router'
import { filterHref, SORT_FILTERS, TYPE_FILTERS } from './course-filters.ts'
import styles from './courses.module.css'

/** Two rows of chips: course type and sort order. Each is a link, so filters work before hydration too. */
export function FilterBar({
  type,
  sort,
  showType = true,
}: {
  type: string | undefined
  sort: string
  showType?: boolean
}) {
  const current = { type, sort }
  return (
    <div className={styles.filters}>
      {showType ? (
        <nav className={styles.chipRow} aria-label="课程类型">
          {TYPE_FILTERS.map((f) => {
            const active = (type ?? '') === f.value
            return (
              <Link
                key={f.value || 'all'}
                to={filterHref(current, { type: f.value })}
                replace
                preventScrollReset
                className={active ? `${styles.chip} ${styles.chipActive}` : styles.chip}
                aria-current={active ? 'true' : undefined}
              >
                {f.label}
              </Link>
            )
          })}
        </nav>
      ) : null}
      <nav className={styles.sortRow} aria-label="排序">
        {SORT_FILTERS.map((f) => {
          const active = sort === f.value
          return (
            <Link
              key={f.value}
              to={filterHref(current, { sort: f.value })}
              replace
              preventScrollReset
              className={active ? `${styles.sort} ${styles.sortActive}` : styles.sort}
              aria-current={active ? 'true' : undefined}
            >
              {f.label}
            </Link>
          )
        })}
      </nav>
    </div>
  )
}
