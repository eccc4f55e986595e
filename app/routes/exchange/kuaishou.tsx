import { ExchangeShops } from '#shared/api/exchange.ts'
import { ExchangeScreen, type ExchangePlatform } from './exchange-screen.tsx'

export function meta() {
  return [
    { title: '快手订单兑换课程 - 自学' },
    { name: 'description', content: '在快手小店买了自学的课程？粘贴订单号，立即开通课程。' },
  ]
}

const kuaishou: ExchangePlatform = {
  title: '快手订单兑换课程',
  guide: '打开快手，点“我” → “我的订单”，进入订单详情，点订单编号旁的“复制”（整段分享文字也可以），粘贴到下面。',
  picture: { src: '/exchange/kuaishou-order.svg', alt: '快手“我的订单”里订单详情的订单编号' },
  placeholder: '粘贴快手订单编号',
  ...ExchangeShops.kuaishou,
  path: ExchangeShops.kuaishou.page,
}

/** /data/ks: exchange a Kuaishou shop (快手小店) order for its courses. */
export default function KuaishouExchange() {
  return <ExchangeScreen platform={kuaishou} />
}
