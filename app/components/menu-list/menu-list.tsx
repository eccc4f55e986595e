import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { sendStat, type StatName } from '#app/lib/stat.ts'
import styles from './menu-list.module.css'
import { ChevronIcon } from '#app/components/icons/line-icons.tsx'

export interface MenuItem {
  to: string
  label: string
  icon?: ReactNode
  /** Text on the right (a value, a hint). */
  extra?: ReactNode
  /** The click statistic this row counts (spec 7), e.g. studyRecord on /mine. */
  stat?: StatName
}

/** A white list of tappable rows with a chevron, 52 px high (the account screens' menus and settings). */
export function MenuList({ items, label }: { items: MenuItem[]; label?: string }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {items.map((item) => (
        <li key={item.to + item.label}>
          <Link to={item.to} className={styles.row} onClick={item.stat ? () => sendStat(item.stat!) : undefined}>
            {item.icon ? <span className={styles.icon}>{item.icon}</span> : null}
            <span className={styles.label}>{item.label}</span>
            {item.extra !== undefined ? <span className={styles.extra}>{item.extra}</span> : null}
            <ChevronIcon size={16} className={styles.chevron} />
          </Link>
        </li>
      ))}
    </ul>
  )
}
