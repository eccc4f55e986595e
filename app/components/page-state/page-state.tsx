import type { ReactNode } from 'react'
import type { Fetched } from '#app/lib/use-api-get.ts'
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

/** The words of a "more" button: busy, failed (tap to try again), or `idle` (加载更多 unless the list says otherwise). */
export function moreLabel(state: 'idle' | 'loading' | 'error', idle = '加载更多') {
  return state === 'loading' ? '加载中…' : state === 'error' ? '加载失败，点击重试' : idle
}

/**
 * The foot of a paged list: "加载更多" while there is more (busy and failed states on the same button), "没有更多了"
 * at the end.
 */
export function ListEnd({
  hasMore,
  state = 'idle',
  onMore,
}: {
  hasMore: boolean
  state?: 'idle' | 'loading' | 'error'
  onMore: () => void
}) {
  if (!hasMore) return <p className={styles.end}>没有更多了</p>
  return (
    <button type="button" className={styles.more} onClick={onMore} disabled={state === 'loading'} aria-live="polite">
      {moreLabel(state)}
    </button>
  )
}

/** What the browser fetched (useApiGet): a spinner while it loads, the error with a retry, then `children(data)`. */
export function Loaded<T>({
  of,
  children,
}: {
  of: { state: Fetched<T>; retry: () => void }
  children: (data: T) => ReactNode
}) {
  if (of.state.status === 'loading') return <Loading />
  if (of.state.status === 'error') return <LoadError message={of.state.message} onRetry={of.retry} />
  return children(of.state.data)
}
