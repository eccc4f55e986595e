import { useCallback, useEffect, useState } from 'react'
import { Link, useLocation, useParams, type MetaArgs } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, ListEnd, LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import {
  EVENT_LABEL,
  METHOD_LABEL,
  STATE_LABEL,
  formatTime,
  isPointsExchange,
  priceText,
  yuan,
  type Order,
  type OrderEvent,
  type OrderKind,
} from '#app/lib/pay.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'

interface ListDef {
  path: string
  title: string
  kind: OrderKind | 'exchange'
  empty: string
}

const LISTS: ListDef[] = [
  { path: 'order', title: '课程订单', kind: 'course', empty: '还没有课程订单' },
  { path: 'order2', title: '会员订单', kind: 'vip', empty: '还没有会员订单' },
  { path: 'order3', title: '缴费订单', kind: 'amount', empty: '还没有缴费订单' },
  { path: 'order4', title: '兑换记录', kind: 'exchange', empty: '还没有兑换记录' },
]

function listOf(pathname: string): ListDef {
  const seg = pathname.split('/')[1]?.toLowerCase() ?? 'order'
  return LISTS.find((l) => l.path === seg) ?? LISTS[0]!
}

export function meta({ location, params }: MetaArgs) {
  const list = listOf(location.pathname)
  return [{ title: `${params.id ? '订单详情' : list.title} - 自学` }]
}

/** /order, /order2, /order3, /order4: the member's orders of one kind, and with {id} one order's detail. */
export default function Orders() {
  const { pathname } = useLocation()
  const { id } = useParams()
  const list = listOf(pathname)
  const hydrated = useHydrated()
  const { token } = useAuth()
  return (
    <main className={styles.page}>
      <NavBar title={id ? '订单详情' : '我的订单'} backTo={id ? `/${list.path}` : '/mine'} />
      {!id ? (
        <nav className={lists.tabs} aria-label="订单类型">
          {LISTS.map((l) => (
            <Link
              key={l.path}
              to={`/${l.path}`}
              replace
              className={`${lists.tab} ${l.path === list.path ? lists.tabActive : ''}`}
              aria-current={l.path === list.path ? 'page' : undefined}
            >
              {l.title}
            </Link>
          ))}
        </nav>
      ) : null}
      {!hydrated ? <Loading /> : null}
      {hydrated && !token ? <LoginRequired reason="登录后查看你的订单" /> : null}
      {hydrated && token && id ? <OrderDetail orderNo={id} /> : null}
      {hydrated && token && !id ? <OrderList key={list.kind} list={list} kind={list.kind} /> : null}
      {hydrated && token && !id && list.kind === 'exchange' ? (
        <div className={styles.body}>
          <p className={styles.notice}>
            用积分兑换的课程记录在这里。兑换码和其他平台（抖音、快手、小红书、微信小店）订单的兑换即将上线，已在其他平台购买的课程可先联系客服开通。
          </p>
          <Link to="/customer" className={styles.secondaryButton}>
            联系客服
          </Link>
        </div>
      ) : null}
    </main>
  )
}

/** Nothing was paid for a pending or closed order: its amount is what is (or was) to pay. */
function amountLabel(o: Order): string {
  if (o.state === 'pending') return '应付'
  if (o.state === 'closed') return '订单金额'
  return '实付'
}

const REFUND_LINK: Record<'paid' | 'refunding' | 'refunded' | 'partially_refunded', string> = {
  paid: '申请退款',
  refunding: '查看退款进度',
  refunded: '退款详情',
  partially_refunded: '退款详情',
}

type ListState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; list: Order[]; next: number | null; more: boolean }

function OrderList({ list, kind }: { list: ListDef; kind: OrderKind | 'exchange' }) {
  const [state, setState] = useState<ListState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    api
      .get<{ list: Order[]; next_cursor: number | null }>(
        '/orders',
        { kind, limit: 20 },
        { quiet: true, signal: controller.signal },
      )
      .then((d) => setState({ status: 'ready', list: d.list, next: d.next_cursor, more: false }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error, '订单加载失败') })
      })
    return () => controller.abort()
  }, [kind, attempt])

  const more = useCallback(() => {
    if (state.status !== 'ready' || !state.next || state.more) return
    setState({ ...state, more: true })
    api
      .get<{ list: Order[]; next_cursor: number | null }>('/orders', { kind, limit: 20, cursor: state.next })
      .then((d) => setState({ status: 'ready', list: [...state.list, ...d.list], next: d.next_cursor, more: false }))
      .catch(() => setState({ ...state, more: false }))
  }, [kind, state])

  if (state.status === 'loading') return <Loading />
  if (state.status === 'error')
    return (
      <LoadError
        message={state.message}
        onRetry={() => {
          setState({ status: 'loading' })
          setAttempt((n) => n + 1)
        }}
      />
    )
  if (state.list.length === 0)
    return (
      <div className={styles.body}>
        <Empty message={list.empty} />
        <Link
          to={kind === 'vip' ? '/vip' : kind === 'exchange' ? '/course/creditPay' : '/ke'}
          className={styles.secondaryButton}
        >
          {kind === 'vip' ? '了解会员' : kind === 'exchange' ? '看看能兑换的课程' : '去看看课程'}
        </Link>
      </div>
    )
  return (
    <div className={styles.body}>
      <ul className={lists.list} aria-label={list.title}>
        {state.list.map((o) => (
          <li key={o.order_no} className={styles.card}>
            <Link to={`/${list.path}/${encodeURIComponent(o.order_no)}`} className={lists.orderLink}>
              <div className={lists.orderHead}>
                <span>{formatTime(o.created_at)}</span>
                <span className={`${lists.state} ${lists[`state_${o.state}`] ?? ''}`}>{STATE_LABEL[o.state]}</span>
              </div>
              <p className={styles.productTitle}>{o.title}</p>
              <div className={lists.orderFoot}>
                {o.refunded_fen > 0 ? <span className={styles.muted}>已退 {yuan(o.refunded_fen)}</span> : null}
                <span>{amountLabel(o)}</span>
                <span className={styles.price}>{priceText(o)}</span>
              </div>
            </Link>
          </li>
        ))}
      </ul>
      <ListEnd hasMore={state.next !== null} state={state.more ? 'loading' : 'idle'} onMore={more} />
    </div>
  )
}

type DetailState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; order: Order & { events: OrderEvent[] } }

function OrderDetail({ orderNo }: { orderNo: string }) {
  const [state, setState] = useState<DetailState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    const controller = new AbortController()
    api
      .get<Order & { events: OrderEvent[] }>(`/orders/${encodeURIComponent(orderNo)}`, undefined, {
        quiet: true,
        signal: controller.signal,
      })
      .then((order) => setState({ status: 'ready', order }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: errorMessage(error, '订单加载失败') })
      })
    return () => controller.abort()
  }, [orderNo, attempt])

  if (state.status === 'loading') return <Loading />
  if (state.status === 'error') return <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
  const o = state.order
  const course = o.items.find((i) => i.course_id)?.course_id
  const payAgain = o.buy_again_path
  return (
    <div className={styles.body}>
      <section className={styles.card} aria-label="订单状态">
        <div className={styles.row}>
          <span className={styles.rowLabel}>订单状态</span>
          <span className={`${lists.state} ${lists[`state_${o.state}`] ?? ''}`}>{STATE_LABEL[o.state]}</span>
        </div>
        <div className={styles.row}>
          <span className={styles.rowLabel}>订单号</span>
          <span className={styles.rowValue}>{o.order_no}</span>
        </div>
        <div className={styles.row}>
          <span className={styles.rowLabel}>下单时间</span>
          <span className={styles.rowValue}>{formatTime(o.created_at)}</span>
        </div>
        {o.paid_at ? (
          <div className={styles.row}>
            <span className={styles.rowLabel}>支付时间</span>
            <span className={styles.rowValue}>{formatTime(o.paid_at)}</span>
          </div>
        ) : null}
        {o.state === 'pending' ? (
          <div className={styles.row}>
            <span className={styles.rowLabel}>支付截止</span>
            <span className={styles.rowValue}>{formatTime(o.expires_at)}</span>
          </div>
        ) : null}
      </section>

      <section className={styles.card} aria-label="商品">
        <h2 className={styles.cardTitle}>商品</h2>
        {o.items.map((item, i) => (
          <div key={i} className={styles.row}>
            {item.course_id ? (
              <Link to={`/course/${item.course_id}.html`} className={styles.rowLabel}>
                {item.title}
              </Link>
            ) : (
              <span className={styles.rowLabel}>{item.title}</span>
            )}
            <span className={styles.rowValue}>{yuan(item.price_fen)}</span>
          </div>
        ))}
      </section>

      <section className={styles.card} aria-label="金额">
        <div className={styles.row}>
          <span className={styles.rowLabel}>商品金额</span>
          <span className={styles.rowValue}>{yuan(o.original_fen)}</span>
        </div>
        {o.discount_fen > 0 ? (
          <div className={styles.row}>
            <span className={styles.rowLabel}>优惠券</span>
            <span className={styles.rowValue}>-{yuan(o.discount_fen)}</span>
          </div>
        ) : null}
        {o.points_used > 0 ? (
          <div className={styles.row}>
            <span className={styles.rowLabel}>{isPointsExchange(o) ? '积分兑换' : '积分抵扣'}</span>
            <span className={styles.rowValue}>{o.points_used} 积分</span>
          </div>
        ) : null}
        <div className={styles.row}>
          <span className={styles.rowLabel}>{amountLabel(o)}</span>
          <span className={`${styles.rowValue} ${styles.price}`}>{priceText(o)}</span>
        </div>
        <div className={styles.row}>
          <span className={styles.rowLabel}>支付方式</span>
          <span className={styles.rowValue}>{METHOD_LABEL[o.pay_method]}</span>
        </div>
        {o.refunded_fen > 0 ? (
          <div className={styles.row}>
            <span className={styles.rowLabel}>已退款</span>
            <span className={styles.rowValue}>{yuan(o.refunded_fen)}</span>
          </div>
        ) : null}
      </section>

      <section className={styles.card} aria-label="订单记录">
        <h2 className={styles.cardTitle}>订单记录</h2>
        {o.events.length === 0 ? (
          <p className={styles.muted}>暂无记录</p>
        ) : (
          <ol className={lists.timeline}>
            {o.events.map((e, i) => (
              <li key={i}>
                <div>{EVENT_LABEL[e.reason] ?? STATE_LABEL[e.to]}</div>
                <div className={styles.muted}>{formatTime(e.at)}</div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <div className={styles.actions}>
        {o.state === 'pending' && payAgain ? (
          <Link to={payAgain} className={styles.linkButton}>
            继续支付
          </Link>
        ) : null}
        {o.state === 'paid' && o.kind === 'course' && course ? (
          <Link to={`/course/${course}.html`} className={styles.linkButton}>
            去学习
          </Link>
        ) : null}
        {o.state !== 'pending' && o.state !== 'closed' ? (
          <Link to={`/refund/${encodeURIComponent(o.order_no)}`} className={styles.secondaryButton}>
            {REFUND_LINK[o.state]}
          </Link>
        ) : null}
      </div>
    </div>
  )
}
