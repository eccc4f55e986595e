import styles from './page-state.module.css'

/** A centred spinner with a label: the loading state of a screen or a block. */
export function Loading({ label = '加载中…' }: { label?: string }) {
  return (
    <div className={styles.box} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span className={styles.label}>{label}</span>
    </div>
  )
}

/** An error state with the reason and, when given, a retry button. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className={styles.box} role="alert">
      <span className={styles.label}>{message}</span>
      {onRetry ? (
        <button type="button" className={styles.retry} onClick={onRetry}>
          重试
        </button>
      ) : null}
    </div>
  )
}

/** An empty state: nothing to list yet. */
export function Empty({ message }: { message: string }) {
  return (
    <div className={styles.box}>
      <span className={styles.label}>{message}</span>
    </div>
  )
}
