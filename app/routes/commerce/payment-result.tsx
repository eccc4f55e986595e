import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import {
  METHOD_LABEL,
  STATE_LABEL,
  formatTime,
  isPointsExchange,
  orderDetailPath,
  priceText,
  type Order,
} from '#app/lib/pay.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'

export function meta() {
  return [{ title: '支付成功 - 自学' }]
}

/** What to do next with what was bought. */
function nextStep(order: Order): { to: string; label: string } {
  const item = order.items[0]
  if (order.kind === 'course' && item?.course_id) return { to: `/course/${item.course_id}.html`, label: '去学习' }
  if (order.kind === 'vip') return { to: '/vip', label: '去看会员课程' }
  return { to: '/', label: '回到首页' }
}

/** The result after paying (/PaymentSuccessful?order_no=): what was bought and where to go next. */
export default function PaymentResult() {
  const [params] = useSearchParams()
  const orderNo = params.get('order_no') ?? ''
  const hydrated = useHydrated()
  const { token } = useAuth()
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; order: Order }
  >({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (!hydrated || !token || !orderNo) return
    const controller = new AbortController()
    api
      .get<Order>('/pay/course', { order_no: orderNo }, { quiet: true, signal: controller.signal })
      .then((order) => setState({ status: 'ready', order }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error, '订单加载失败') })
      })
    return () => controller.abort()
  }, [hydrated, token, orderNo, attempt])

  const order = state.status === 'ready' ? state.order : null
  const paid = order?.state === 'paid'
  // A course exchanged for points: nothing was paid.
  const done = order && isPointsExchange(order) ? '兑换成功' : '支付成功'
  return (
    <main className={styles.page}>
      <NavBar title={!order ? '支付结果' : paid ? done : '订单状态'} backTo="/" />
      {!orderNo ? <LoadError message="缺少订单号，请到“我的订单”查看" /> : null}
      {orderNo && hydrated && !token ? <LoginRequired reason="登录后查看订单" /> : null}
      {orderNo && (!hydrated || (token && state.status === 'loading')) ? <Loading /> : null}
      {orderNo && token && state.status === 'error' ? (
        <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : null}
      {order ? (
        <>
          <div className={styles.result}>
            <span className={`${styles.resultIcon} ${paid ? styles.ok : styles.warn}`} aria-hidden="true">
              {paid ? '✓' : '!'}
            </span>
            <p className={styles.resultTitle}>{paid ? done : `订单${STATE_LABEL[order.state]}`}</p>
            <p className={styles.muted}>
              {paid
                ? order.kind === 'vip'
                  ? '会员已开通，会员免费课程可以直接学习'
                  : '已为你开通，现在就可以学习'
                : '这笔订单当前不是已支付状态'}
            </p>
          </div>
          <div className={styles.body}>
            <section className={styles.card} aria-label="订单信息">
              <div className={styles.row}>
                <span className={styles.rowLabel}>购买内容</span>
                <span className={styles.rowValue}>{order.title}</span>
              </div>
              <div className={styles.row}>
                <span className={styles.rowLabel}>{isPointsExchange(order) ? '兑换积分' : '实付金额'}</span>
                <span className={`${styles.rowValue} ${styles.price}`}>{priceText(order)}</span>
              </div>
              <div className={styles.row}>
                <span className={styles.rowLabel}>支付方式</span>
                <span className={styles.rowValue}>{METHOD_LABEL[order.pay_method]}</span>
              </div>
              {order.paid_at ? (
                <div className={styles.row}>
                  <span className={styles.rowLabel}>支付时间</span>
                  <span className={styles.rowValue}>{formatTime(order.paid_at)}</span>
                </div>
              ) : null}
              <div className={styles.row}>
                <span className={styles.rowLabel}>订单号</span>
                <span className={styles.rowValue}>{order.order_no}</span>
              </div>
            </section>
          </div>
          <div className={styles.actions}>
            {paid ? (
              <Link to={nextStep(order).to} className={styles.linkButton}>
                {nextStep(order).label}
              </Link>
            ) : null}
            <Link to={orderDetailPath(order)} className={styles.secondaryButton}>
              查看订单
            </Link>
          </div>
        </>
      ) : null}
    </main>
  )
}
