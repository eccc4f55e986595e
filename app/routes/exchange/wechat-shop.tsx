import { ExchangeShops } from '#shared/api/exchange.ts'
import { ExchangeScreen, type ExchangePlatform } from './exchange-screen.tsx'

export function meta() {
  return [
    { title: '微信小店订单兑换课程 - 自学' },
    { name: 'description', content: '在微信小店买了自学的课程？粘贴订单号，立即开通课程。' },
  ]
}

const wechatShop: ExchangePlatform = {
  title: '微信小店订单兑换课程',
  guide: '在微信点“我” → “订单与卡包” → “小店订单”，进入订单详情，复制订单号，粘贴到下面。',
  picture: { src: '/exchange/wechat-shop-order.svg', alt: '微信“订单与卡包”里小店订单详情的订单号' },
  placeholder: '粘贴微信小店订单号',
  ...ExchangeShops.wechat_shop,
  path: ExchangeShops.wechat_shop.page,
}

/** /data/wechatShop: exchange a WeChat Shop (微信小店) order for its courses. */
export default function WechatShopExchange() {
  return <ExchangeScreen platform={wechatShop} />
}
