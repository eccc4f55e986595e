import type { MouseEvent, ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import styles from './nav-bar.module.css'
import { BackIcon } from '#app/components/icons/line-icons.tsx'

export interface NavBarProps {
  title: ReactNode
  /** Where the back arrow leads when there is no page to go back to (opened from a shared link); default "/". */
  backTo?: string
  /** No back arrow (top-level screens such as the tabs). */
  noBack?: boolean
  right?: ReactNode
}

/** React Router keeps its own history index; 0 means this page opened the visit. */
function canGoBack(): boolean {
  if (typeof window === 'undefined') return false
  const state = window.history.state as { idx?: number } | null
  return typeof state?.idx === 'number' && state.idx > 0
}

/**
 * The title bar of every non-tab screen. The back arrow is a real link (works before hydration) that goes back
 * in history when there is history, otherwise to `backTo`.
 */
export function NavBar({ title, backTo = '/', noBack = false, right }: NavBarProps) {
  const navigate = useNavigate()
  // A Link skips its own navigation when the handler prevented the default.
  const onBack = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!canGoBack()) return
    event.preventDefault()
    void navigate(-1)
  }
  return (
    <header className={styles.bar}>
      <div className={styles.side}>
        {noBack ? null : (
          <Link to={backTo} className={styles.back} onClick={onBack} aria-label="返回">
            <BackIcon size={22} />
          </Link>
        )}
      </div>
      <h1 className={styles.title}>{title}</h1>
      <div className={`${styles.side} ${styles.right}`}>{right}</div>
    </header>
  )
}
