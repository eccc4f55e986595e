import { ExchangeShops } from '#shared/api/exchange.ts'
import { ExchangeScreen, type ExchangePlatform } from './exchange-screen.tsx'

export function meta() {
  return [
    { title: '小红书订单兑换课程 - 自学' },
    { name: 'description', content: '在小红书买了自学的课程？粘贴订单号，立即开通课程。' },
  ]
}

const xiaohongshu: ExchangePlatform = {
  title: '小红书订单兑换课程',
  guide: '打开小红书，点“我” → “全部订单”，进入订单详情，复制以 P 开头的订单号，粘贴到下面。',
  picture: { src: '/exchange/xiaohongshu-order.svg', alt: '小红书“全部订单”里订单详情的订单号' },
  placeholder: '粘贴小红书订单号（P 开头）',
  ...ExchangeShops.xiaohongshu,
  path: ExchangeShops.xiaohongshu.page,
}

/** /data/xhs: exchange a Xiaohongshu order for its courses. */
export default function XiaohongshuExchange() {
  return <ExchangeScreen platform={xiaohongshu} />
}
