import { exchangeShop } from '#shared/api/exchange-shops.ts'
import { ExchangeScreen, type ExchangePlatform } from './exchange-screen.tsx'

export function meta() {
  return [
    { title: '抖音订单兑换课程 - 自学' },
    { name: 'description', content: '在抖音团购或抖店买了自学的课程？粘贴订单号或券码，立即开通课程。' },
  ]
}

const douyin: ExchangePlatform = {
  title: '抖音订单兑换课程',
  guide:
    '打开抖音，点“我” → 右上角“☰” → “我的订单”，进入订单详情，长按复制团购券码或订单编号（整段分享文字也可以），粘贴到下面。',
  picture: { src: '/exchange/douyin-order.svg', alt: '抖音“我的订单”里的团购券码和订单编号' },
  placeholder: '粘贴券码、订单编号或分享文字',
  shop: exchangeShop('douyin'),
}

/** /data/tt: exchange a Douyin group-buy voucher or Douyin shop order for its courses. */
export default function DouyinExchange() {
  return <ExchangeScreen platform={douyin} />
}
