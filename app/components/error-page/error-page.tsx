import { Link } from 'react-router'
import styles from './error-page.module.css'

const NOT_FOUND_TEXT = 'This page could not be found'

/** What a loader's 404 carries: the sentence saying what is missing (课程不存在或已下架). */
export interface Missing {
  missing: string
}

/**
 * The sentence of a loader's 404 (`Missing`), or undefined for any other 404: the router's own for an unknown
 * address carries its English error text, which learners are not shown.
 */
export function missingOf(data: unknown): string | undefined {
  const missing = typeof data === 'object' && data !== null ? (data as Partial<Missing>).missing : undefined
  return typeof missing === 'string' && missing ? missing : undefined
}

/** The error screen (spec 2 and 8): the status, what went wrong, and the way back home. */
export function ErrorPage({ status, detail }: { status: number; detail?: string }) {
  const notFound = status === 404
  return (
    <main className={styles.page}>
      <p className={styles.status}>{status}</p>
      <h1 className={styles.title}>{notFound ? '页面不存在' : '页面出错了'}</h1>
      <p className={styles.english}>{notFound ? NOT_FOUND_TEXT : 'Something went wrong'}</p>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      <Link to="/" className={styles.home} reloadDocument={!notFound}>
        返回首页
        <span className={styles.homeEnglish}>Back to the home page</span>
      </Link>
    </main>
  )
}
