import type { ReactNode } from 'react'
import styles from './checkout.module.css'

/** One line of a checkout or order card: what it is, and its value (`price`: in the price colour). */
export function CardRow({ label, price, children }: { label: ReactNode; price?: boolean; children: ReactNode }) {
  return (
    <div className={styles.row}>
      <span className={styles.rowLabel}>{label}</span>
      <span className={price ? `${styles.rowValue} ${styles.price}` : styles.rowValue}>{children}</span>
    </div>
  )
}
