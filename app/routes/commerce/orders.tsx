import { useLocation, useParams, type MetaArgs } from 'react-router'
import { ComingSoon, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const lists: Record<string, { title: string; purpose: string }> = {
  order: { title: '课程订单', purpose: '你购买课程的全部订单：待支付、已支付、退款中和已退款，以及每笔订单的详情。' },
  order2: { title: '会员订单', purpose: '你开通和续费会员的订单记录。' },
  order3: { title: '缴费订单', purpose: '学费、定金等缴费记录。' },
  order4: { title: '兑换记录', purpose: '用兑换码或第三方平台订单兑换课程的记录。' },
}

/** /order, /order2, /order3, /order4 (each with an optional order id): one screen per kind of order. */
export function orderScreen(pathname: string, id: string | undefined): ComingSoonScreen {
  const kind = pathname.split('/')[1]?.toLowerCase() ?? 'order'
  const list = lists[kind] ?? lists.order!
  return {
    title: id ? `${list.title.replace(/记录$/, '')}详情` : list.title,
    purpose: id ? `这里将显示这笔订单的金额、状态和支付时间。${list.purpose}` : list.purpose,
    arrives: 'commerce',
    links: [
      { to: '/mine', label: '回到我的' },
      { to: '/customer', label: '联系客服' },
    ],
  }
}

export function meta({ location, params }: MetaArgs) {
  return [{ title: `${orderScreen(location.pathname, params.id).title} - 自学` }]
}

export default function Orders() {
  const { pathname } = useLocation()
  const { id } = useParams()
  return <ComingSoon screen={orderScreen(pathname, id)} />
}
