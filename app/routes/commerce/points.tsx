import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { formatTime, yuan } from '#app/lib/pay.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { z } from 'zod'
import type { PointsResponse } from '#server/modules/points/points.schema.ts'

export function meta() {
  return [{ title: '我的积分 - 自学' }]
}

type Points = z.infer<typeof PointsResponse>['data']
type Entry = Points['list'][number]

const REASON: Record<Entry['reason'], string> = {
  order_earned: '购买获得',
  order_earned_reversed: '退款扣回',
  order_spent: '下单抵扣',
  order_spent_returned: '抵扣退回',
  admin_adjust: '客服调整',
}

/** /points: the balance, how points work, and the ledger. */
export default function PointsScreen() {
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: Points; more: boolean }
  >({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!hydrated || !token) return
    const controller = new AbortController()
    api
      .get<Points>('/points', { limit: 20 }, { quiet: true, signal: controller.signal })
      .then((data) => setState({ status: 'ready', data, more: false }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error, '积分加载失败') })
      })
    return () => controller.abort()
  }, [hydrated, token, attempt])

  const more = () => {
    if (state.status !== 'ready' || !state.data.next_cursor) return
    const current = state
    setState({ ...current, more: true })
    api
      .get<Points>('/points', { limit: 20, cursor: current.data.next_cursor })
      .then((d) => setState({ status: 'ready', data: { ...d, list: [...current.data.list, ...d.list] }, more: false }))
      .catch(() => setState({ ...current, more: false }))
  }

  return (
    <main className={styles.page}>
      <NavBar title="我的积分" backTo="/mine" />
      {!hydrated ? <Loading /> : null}
      {hydrated && !token ? <LoginRequired reason="登录后查看积分" /> : null}
      {hydrated && token && state.status === 'loading' ? <Loading /> : null}
      {hydrated && token && state.status === 'error' ? (
        <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : null}
      {hydrated && token && state.status === 'ready' ? (
        <div className={styles.body}>
          <section className={`${styles.card} ${styles.center}`} aria-label="积分余额">
            <p className={styles.muted}>当前积分</p>
            <p className={styles.bigPrice} data-testid="points-balance">
              {state.data.balance}
            </p>
            <p className={styles.muted}>约可抵 {yuan(state.data.balance * state.data.fen_per_point)}</p>
            <div className={styles.actions}>
              <Link to="/course/creditPay" className={styles.secondaryButton}>
                积分兑换课程
              </Link>
            </div>
          </section>
          <p className={styles.notice}>
            每支付 1 元得 {state.data.earn_per_yuan} 积分；下单时 1 积分抵 {yuan(state.data.fen_per_point)}
            ，最多抵扣订单金额的 {state.data.max_percent}%。退款时积分随订单退回或扣回。
          </p>
          <section className={styles.card} aria-label="积分明细">
            <h2 className={styles.cardTitle}>积分明细</h2>
            {state.data.list.length === 0 ? (
              <Empty message="还没有积分记录，购买课程即可获得积分" />
            ) : (
              <>
                {state.data.list.map((e) => (
                  <div key={e.id} className={styles.row}>
                    <span className={styles.rowLabel}>
                      <span>{REASON[e.reason]}</span>
                      <span className={styles.muted} style={{ display: 'block' }}>
                        {formatTime(e.created_at)}
                        {e.note ? ` · ${e.note}` : ''}
                      </span>
                    </span>
                    <span className={e.delta > 0 ? styles.plus : styles.minus}>
                      {e.delta > 0 ? `+${e.delta}` : e.delta}
                    </span>
                  </div>
                ))}
                {state.data.next_cursor ? (
                  <button type="button" className={lists.more} onClick={more} disabled={state.more}>
                    {state.more ? '加载中…' : '加载更多'}
                  </button>
                ) : null}
              </>
            )}
          </section>
        </div>
      ) : null}
    </main>
  )
}
