import type { ReactNode } from 'react'
import { Link } from 'react-router'
import styles from './menu-list.module.css'

export interface MenuItem {
  to: string
  label: string
  icon?: ReactNode
  /** Text on the right (a value, a hint). */
  extra?: ReactNode
}

/** A white list of tappable rows with a chevron, 52 px high (the account screens' menus and settings). */
export function MenuList({ items, label }: { items: MenuItem[]; label?: string }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {items.map((item) => (
        <li key={item.to + item.label}>
          <Link to={item.to} className={styles.row}>
            {item.icon ? <span className={styles.icon}>{item.icon}</span> : null}
            <span className={styles.label}>{item.label}</span>
            {item.extra !== undefined ? <span className={styles.extra}>{item.extra}</span> : null}
            <svg className={styles.chevron} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <path
                d="m9 6 6 6-6 6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </Link>
        </li>
      ))}
    </ul>
  )
}
