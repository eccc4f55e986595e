import { useLocation, type MetaArgs } from 'react-router'
import { ComingSoon, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const platforms: Record<string, string> = { tt: '抖音', ks: '快手', xhs: '小红书', wechatshop: '微信小店' }

/** /data/tt, /data/ks, /data/xhs, /data/wechatShop: exchange an order from that platform for the course. */
export function exchangeScreen(pathname: string): ComingSoonScreen {
  const key = pathname.split('/')[2]?.toLowerCase() ?? ''
  const platform = platforms[key] ?? '第三方平台'
  return {
    title: `${platform}订单兑换`,
    purpose: `在${platform}购买了课程？输入订单号即可兑换成本站课程，兑换后在“已购”里学习。`,
    arrives: 'commerce',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  }
}

export function meta({ location }: MetaArgs) {
  return [{ title: `${exchangeScreen(location.pathname).title} - 自学` }]
}

export default function ExchangeOrders() {
  const { pathname } = useLocation()
  return <ComingSoon screen={exchangeScreen(pathname)} />
}
