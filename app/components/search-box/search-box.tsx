import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { addToHistory, normaliseKeyword } from './search-history.ts'
import styles from './search-box.module.css'
import { SearchIcon } from '#app/components/icons/line-icons.tsx'

/** /searchCourse?keyword=… for a keyword. */
export function searchHref(keyword: string) {
  return `/searchCourse?keyword=${encodeURIComponent(keyword)}`
}

/**
 * The search bar of /search and /searchCourse: a real GET form to /searchCourse (works before hydration), which
 * also keeps the keyword in this browser's history. A plain `<form>`: the submit handler navigates itself, and
 * React Router's `<Form>` would bring its form submission code into every page's first load (issue 11 §4).
 */
export function SearchBox({
  initial = '',
  autoFocus = false,
  onSearch,
}: {
  initial?: string
  autoFocus?: boolean
  onSearch?: (keyword: string) => void
}) {
  const navigate = useNavigate()
  const [value, setValue] = useState(initial)

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const keyword = normaliseKeyword(value)
    if (!keyword) return
    addToHistory(keyword)
    onSearch?.(keyword)
    void navigate(searchHref(keyword))
  }

  return (
    <form method="get" action="/searchCourse" role="search" className={styles.box} onSubmit={submit}>
      <span className={styles.field}>
        <SearchIcon size={18} className={styles.icon} />
        <input
          className={styles.input}
          type="search"
          name="keyword"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="搜索课程、老师或分类"
          aria-label="搜索关键词"
          enterKeyHint="search"
          maxLength={50}
          autoComplete="off"
          // The search page exists to type into.
          autoFocus={autoFocus}
        />
      </span>
      <button type="submit" className={styles.submit}>
        搜索
      </button>
    </form>
  )
}
