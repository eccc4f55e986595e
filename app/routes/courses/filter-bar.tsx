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
        <FilterRow
          label="课程类型"
          className={styles.chipRow}
          filters={TYPE_FILTERS}
          chosen={type ?? ''}
          hrefFor={(value) => filterHref(current, { type: value })}
          chipClass={(active) => (active ? `${styles.chip} ${styles.chipActive}` : styles.chip)}
        />
      ) : null}
      <FilterRow
        label="排序"
        className={styles.sortRow}
        filters={SORT_FILTERS}
        chosen={sort}
        hrefFor={(value) => filterHref(current, { sort: value })}
        chipClass={(active) => (active ? `${styles.sort} ${styles.sortActive}` : styles.sort)}
      />
    </div>
  )
}

/** One row of filter links; the one in force is marked current. Following one replaces the URL in place. */
function FilterRow({
  label,
  className,
  filters,
  chosen,
  hrefFor,
  chipClass,
}: {
  label: string
  className?: string
  filters: { value: string; label: string }[]
  chosen: string
  hrefFor: (value: string) => string
  chipClass: (active: boolean) => string | undefined
}) {
  return (
    <nav className={className} aria-label={label}>
      {filters.map((f) => (
        <Link
          key={f.value || 'all'}
          to={hrefFor(f.value)}
          replace
          preventScrollReset
          className={chipClass(chosen === f.value)}
          aria-current={chosen === f.value ? 'true' : undefined}
        >
          {f.label}
        </Link>
      ))}
    </nav>
  )
}
