import { useEffect } from 'react'
import { Link, useSearchParams } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { NoSuchOrder } from '#app/components/checkout/no-such-order.tsx'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loaded } from '#app/components/page-state/page-state.tsx'
import { METHOD_LABEL, STATE_LABEL, isPointsExchange, orderDetailPath, priceText, type Order } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { forgetOwnedCourses } from '#app/lib/owned-courses.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { CourseAccess } from '#server/modules/learning/learning.schema.ts'

export function meta() {
  return [{ title: '支付成功 - 自学' }]
}

/**
 * What to do next with what was bought: a course opens in the player at the lesson to watch (where the member
 * left off, else the first one) once GET /course/access said which; several courses go to /ke1.
 */
function nextStep(order: Order, access: CourseAccess | null): { to: string; label: string } {
  const item = order.items[0]
  if (order.kind === 'course' && item?.course_id) {
    const vid = access?.resume?.vid ?? access?.first_vid
    return { to: vid ? `/v/${vid}.html` : `/course/${item.course_id}.html`, label: '去学习' }
  }
  if (order.kind === 'bundle' || order.kind === 'favourites') return { to: '/ke1', label: '去学习' }
  if (order.kind === 'vip') return { to: '/vip', label: '去看会员课程' }
  return { to: '/', label: '回到首页' }
}

/** The course page's access answer for a paid course order (where to start), null for other orders. */
function useNextLesson(order: Order) {
  const courseId = order.kind === 'course' && order.state === 'paid' ? order.items[0]?.course_id : null
  return useApiGet<CourseAccess>(courseId ? '/course/access' : null, { query: { course_id: courseId } }).data
}

/** What paying gave: a course exchanged for points was not paid for. */
function doneTitle(order: Order) {
  return isPointsExchange(order) ? '兑换成功' : '支付成功'
}

/** The result after paying (/PaymentSuccessful?order_no=): what was bought and where to go next. */
export default function PaymentResult() {
  const [params] = useSearchParams()
  const orderNo = params.get('order_no') ?? ''
  const result = useApiGet<Order>(orderNo ? '/pay/course' : null, {
    member: true,
    query: { order_no: orderNo },
    errorText: '订单加载失败',
  })
  const order = result.data
  return (
    <main className={styles.page}>
      <NavBar title={!order ? '支付结果' : order.state === 'paid' ? doneTitle(order) : '订单状态'} backTo="/" />
      {!orderNo ? (
        <LoadError message="缺少订单号，请到“我的订单”查看" />
      ) : (
        <MemberOnly reason="登录后查看订单">
          {result.state.status === 'error' && result.state.code === 404 ? (
            <NoSuchOrder message={result.state.message} />
          ) : (
            <Loaded of={result}>{(o) => <Outcome order={o} />}</Loaded>
          )}
        </MemberOnly>
      )}
    </main>
  )
}

/** The order after paying: whether it is paid, what it holds, and where to go next. */
function Outcome({ order }: { order: Order }) {
  const paid = order.state === 'paid'
  // What the cards of other screens knew the member owned is stale now (a points exchange stays in the app).
  useEffect(() => {
    if (paid) forgetOwnedCourses()
  }, [paid])
  const next = nextStep(order, useNextLesson(order))
  return (
    <>
      <div className={styles.result}>
        <span className={`${styles.resultIcon} ${paid ? styles.ok : styles.warn}`} aria-hidden="true">
          {paid ? '✓' : '!'}
        </span>
        <p className={styles.resultTitle}>{paid ? doneTitle(order) : `订单${STATE_LABEL[order.state]}`}</p>
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
          <CardRow label="购买内容">{order.title}</CardRow>
          <CardRow label={isPointsExchange(order) ? '兑换积分' : '实付金额'} price>
            {priceText(order)}
          </CardRow>
          <CardRow label="支付方式">{METHOD_LABEL[order.pay_method]}</CardRow>
          {order.paid_at ? <CardRow label="支付时间">{formatTime(order.paid_at)}</CardRow> : null}
          <CardRow label="订单号">{order.order_no}</CardRow>
        </section>
      </div>
      <div className={styles.actions}>
        {paid ? (
          <Link to={next.to} className={styles.linkButton}>
            {next.label}
          </Link>
        ) : null}
        <Link to={orderDetailPath(order)} className={styles.secondaryButton}>
          查看订单
        </Link>
      </div>
    </>
  )
}
