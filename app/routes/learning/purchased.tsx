import { Link } from 'react-router'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { Loading } from '#app/components/page-state/page-state.tsx'
import { SOON_TEXT } from '#app/components/coming-soon/coming-soon.tsx'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import styles from './purchased.module.css'

export function meta() {
  return [{ title: '已购 - 自学' }]
}

/**
 * The "purchased" tab (/ke1). The list of bought courses and "continue where I left off" arrive with the
 * learning work; until then the tab says so honestly and points to what works.
 */
export default function Purchased() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>已购课程</h1>
      </header>
      {!hydrated ? <Loading /> : null}
      {hydrated && !token ? <LoginRequired reason="登录后查看你购买和领取的课程" target="/ke1" /> : null}
      {hydrated && token ? (
        <section className={styles.soon}>
          <p className={styles.badge}>{SOON_TEXT}</p>
          <p className={styles.text}>你购买或免费领取的课程会列在这里，并可以从上次看到的地方继续学习。</p>
          <div className={styles.links}>
            <Link to="/ke" className={styles.primary}>
              浏览全部课程
            </Link>
            <Link to="/ke2" className={styles.secondary}>
              在其他平台买过课？用购买手机号查询
            </Link>
          </div>
        </section>
      ) : null}
    </main>
  )
}
