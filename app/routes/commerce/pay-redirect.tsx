import { useEffect, useState } from 'react'
import { NoSuchOrder } from '#app/components/checkout/no-such-order.tsx'
import { Link, useNavigate, useSearchParams } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { api } from '#app/lib/api.ts'
import { orderListPath, resultPath, type Order } from '#app/lib/pay.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'

export function meta() {
  return [{ title: '支付结果确认中 - 自学' }]
}

const EVERY_MS = 1500
const GIVE_UP_MS = 60_000
/** WeChat Pay H5 comes back here paid or not (a cancel looks the same): after a while, offer the way out too. */
const SLOW_MS = 5000

function retryPath(order: Order | null): string {
  return order?.buy_again_path ?? '/order'
}

/** "查看订单": the list of orders of this kind (all orders while the order is unknown). */
function OrdersLink({ order }: { order: Order | null }) {
  return (
    <Link to={order ? orderListPath(order.kind) : '/order'} className={styles.secondaryButton}>
      查看订单
    </Link>
  )
}

/**
 * Where the providers send the browser back (/payRedirect?order_no=): polls the order every 1.5 s for up to a
 * minute (the poll also asks the provider), then shows the result or "支付未完成" with a retry.
 */
export default function PayRedirect() {
  const [params] = useSearchParams()
  const orderNo = params.get('order_no') ?? ''
  const navigate = useNavigate()
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [phase, setPhase] = useState<'waiting' | 'unpaid' | 'error'>('waiting')
  const [order, setOrder] = useState<Order | null>(null)
  const [round, setRound] = useState(0)
  // The round of polling that has been waiting long: a new round ("我已支付，重新查询") starts quiet again.
  const [slowRound, setSlowRound] = useState(-1)
  const slow = slowRound === round

  useEffect(() => {
    const timer = setTimeout(() => setSlowRound(round), SLOW_MS)
    return () => clearTimeout(timer)
  }, [round])

  useEffect(() => {
    if (!hydrated || !token || !orderNo) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const started = Date.now()
    const tick = async () => {
      const result = await api.request<Order>('GET', '/pay/course', { order_no: orderNo }, { quiet: true })
      if (stopped) return
      if (result.ok) {
        setOrder(result.data)
        if (result.data.state === 'paid') {
          void navigate(resultPath(orderNo), { replace: true })
          return
        }
        if (result.data.state !== 'pending') {
          setPhase('unpaid')
          return
        }
      } else if (result.error.kind === 'business') {
        setPhase('error')
        return
      }
      if (Date.now() - started >= GIVE_UP_MS) setPhase('unpaid')
      else timer = setTimeout(() => void tick(), EVERY_MS)
    }
    void tick()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [hydrated, token, orderNo, navigate, round])

  return (
    <main className={styles.page}>
      <NavBar title="支付结果" backTo="/order" />
      {!orderNo ? <LoadError message="缺少订单号，请到“我的订单”查看" /> : null}
      {orderNo && hydrated && !token ? <LoginRequired reason="登录后查看支付结果" /> : null}
      {orderNo && (!hydrated || token) && phase === 'waiting' ? (
        <div className={styles.result} role="status" aria-live="polite">
          <span className={`${styles.resultIcon} ${styles.warn}`} aria-hidden="true">
            …
          </span>
          <p className={styles.resultTitle}>正在确认支付结果</p>
          <p className={styles.muted}>
            {slow ? '如果已经付款，结果稍后会自动更新；没有付款可以重新支付' : '请稍候，不要关闭页面'}
          </p>
        </div>
      ) : null}
      {orderNo && token && phase === 'waiting' && slow ? (
        <div className={styles.actions}>
          <Link to={retryPath(order)} className={styles.linkButton}>
            重新支付
          </Link>
          <OrdersLink order={order} />
        </div>
      ) : null}
      {orderNo && token && phase === 'error' ? <NoSuchOrder message="订单不存在" /> : null}
      {orderNo && token && phase === 'unpaid' ? (
        <>
          <div className={styles.result}>
            <span className={`${styles.resultIcon} ${styles.warn}`} aria-hidden="true">
              !
            </span>
            <p className={styles.resultTitle}>支付未完成</p>
            <p className={styles.muted}>
              {order?.state === 'closed'
                ? '订单已关闭。如已扣款，款项会自动退回。'
                : '还没有收到付款结果。如果已经付款，请稍后在“我的订单”中查看。'}
            </p>
          </div>
          <div className={styles.actions}>
            {order?.state === 'pending' ? (
              <button
                type="button"
                className={styles.button}
                onClick={() => {
                  setPhase('waiting')
                  setRound((n) => n + 1)
                }}
              >
                我已支付，重新查询
              </button>
            ) : null}
            <Link
              to={retryPath(order)}
              className={order?.state === 'pending' ? styles.secondaryButton : styles.linkButton}
            >
              重新支付
            </Link>
            <OrdersLink order={order} />
          </div>
        </>
      ) : null}
    </main>
  )
}
