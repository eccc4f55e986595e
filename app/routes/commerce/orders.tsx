import { TuitionSchedules } from './tuition-schedule.tsx'
import { NativeQr } from '#app/components/pay/native-qr.tsx'
import { usePay } from '#app/components/pay/use-pay.ts'
import { Link, useLocation, useParams, type MetaArgs } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { NoSuchOrder } from '#app/components/checkout/no-such-order.tsx'
import { Empty, ListEnd, Loaded } from '#app/components/page-state/page-state.tsx'
import {
  EVENT_LABEL,
  orderStatus,
  METHOD_LABEL,
  STATE_LABEL,
  isPointsExchange,
  priceText,
  yuan,
  type Order,
  type OrderEvent,
  type OrderKind,
} from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { ExchangeRecords } from './exchange-records.tsx'
import { usePagedList } from '#app/lib/use-paged-list.ts'

interface ListDef {
  path: string
  title: string
  /** `exchange`: the exchange record (./exchange-records.tsx), not orders. */
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
      <MemberOnly reason="登录后查看你的订单">
        {id ? (
          <OrderDetail orderNo={id} />
        ) : list.kind === 'exchange' ? (
          <ExchangeRecords />
        ) : (
          <>
            {list.kind === 'amount' ? <TuitionSchedules /> : null}
            <OrderList key={list.kind} list={list} />
          </>
        )}
      </MemberOnly>
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

/** The member's orders of one kind, newest first, paged. */
function OrderList({ list }: { list: ListDef }) {
  const { kind } = list
  const orders = usePagedList<Order, number>('/orders', { query: { kind, limit: 20 }, errorText: '订单加载失败' })
  return (
    <Loaded of={orders}>
      {(page) =>
        page.list.length === 0 ? (
          <div className={styles.body}>
            <Empty message={list.empty} />
            <Link to={kind === 'vip' ? '/vip' : '/ke'} className={styles.secondaryButton}>
              {kind === 'vip' ? '了解会员' : '去看看课程'}
            </Link>
          </div>
        ) : (
          <div className={styles.body}>
            <ul className={lists.list} aria-label={list.title}>
              {page.list.map((o) => {
                const status = orderStatus(o)
                return (
                  <li key={o.order_no} className={styles.card}>
                    <Link to={`/${list.path}/${encodeURIComponent(o.order_no)}`} className={lists.orderLink}>
                      <div className={lists.orderHead}>
                        <span>{formatTime(o.created_at)}</span>
                        <span className={`${lists.state} ${lists[`state_${status.tone}`] ?? ''}`}>{status.label}</span>
                      </div>
                      <p className={styles.productTitle}>{o.title}</p>
                      {status.note ? <p className={lists.refundNote}>{status.note}</p> : null}
                      <div className={lists.orderFoot}>
                        {o.refunded_fen > 0 ? <span className={styles.muted}>已退 {yuan(o.refunded_fen)}</span> : null}
                        <span>{amountLabel(o)}</span>
                        <span className={styles.price}>{priceText(o)}</span>
                      </div>
                    </Link>
                  </li>
                )
              })}
            </ul>
            <ListEnd hasMore={page.next_cursor !== null} state={orders.more} onMore={orders.loadMore} />
          </div>
        )
      }
    </Loaded>
  )
}

type Detail = Order & { events: OrderEvent[] }

/**
 * 继续支付: the same pending order handed to its provider again (POST /orders/pay), whatever it bought; the
 * checkout page it came from stays as a second way, for another method.
 */
function ContinuePaying({ orderNo, fallback }: { orderNo: string; fallback: string }) {
  const { pay, paying, qr, closeQr } = usePay()
  return (
    <>
      <button
        type="button"
        className={styles.linkButton}
        disabled={paying}
        onClick={() => void pay('/orders/pay', { order_no: orderNo })}
      >
        {paying ? '正在打开支付…' : '继续支付'}
      </button>
      <Link to={fallback} className={styles.secondaryButton}>
        换一种方式支付
      </Link>
      {qr ? <NativeQr order={qr} onClose={closeQr} /> : null}
    </>
  )
}

function OrderDetail({ orderNo }: { orderNo: string }) {
  const order = useApiGet<Detail>(`/orders/${encodeURIComponent(orderNo)}`, { errorText: '订单加载失败' })
  // An order that does not exist (or is not this member's) will not appear on a retry: offer the order list.
  if (order.state.status === 'error' && order.state.code === 404) return <NoSuchOrder message={order.state.message} />
  return <Loaded of={order}>{(o) => <OrderFacts o={o} />}</Loaded>
}

/** One order: its state and dates, what it holds, the money, its history, and what can be done next. */
function OrderFacts({ o }: { o: Detail }) {
  const status = orderStatus(o)
  const course = o.items.find((i) => i.course_id)?.course_id
  const payAgain = o.buy_again_path
  return (
    <div className={styles.body}>
      <section className={styles.card} aria-label="订单状态">
        <div className={styles.row}>
          <span className={styles.rowLabel}>订单状态</span>
          <span className={`${lists.state} ${lists[`state_${status.tone}`] ?? ''}`}>{status.label}</span>
        </div>
        {status.note ? <p className={lists.refundNote}>{status.note}</p> : null}
        {o.refund && o.refund.state !== 'succeeded' && o.refund.state !== 'rejected' ? (
          <CardRow label="退款金额">{yuan(o.refund.amount_fen)}</CardRow>
        ) : null}
        <CardRow label="订单号">{o.order_no}</CardRow>
        <CardRow label="下单时间">{formatTime(o.created_at)}</CardRow>
        {o.paid_at ? <CardRow label="支付时间">{formatTime(o.paid_at)}</CardRow> : null}
        {o.state === 'pending' ? <CardRow label="支付截止">{formatTime(o.expires_at)}</CardRow> : null}
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
        <CardRow label="商品金额">{yuan(o.original_fen)}</CardRow>
        {o.discount_fen > 0 ? <CardRow label="优惠券">-{yuan(o.discount_fen)}</CardRow> : null}
        {o.points_used > 0 ? (
          <CardRow label={isPointsExchange(o) ? '积分兑换' : '积分抵扣'}>{o.points_used} 积分</CardRow>
        ) : null}
        <CardRow label={amountLabel(o)} price>
          {priceText(o)}
        </CardRow>
        <CardRow label="支付方式">{METHOD_LABEL[o.pay_method]}</CardRow>
        {o.refunded_fen > 0 ? <CardRow label="已退款">{yuan(o.refunded_fen)}</CardRow> : null}
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
        {o.state === 'pending' ? <ContinuePaying orderNo={o.order_no} fallback={payAgain} /> : null}
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
