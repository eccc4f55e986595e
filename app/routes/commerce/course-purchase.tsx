import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '确认订单',
  purpose: '购买课程前的订单确认：选择优惠券、使用积分或钱包余额，然后支付。',
  arrives: 'commerce',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function CoursePurchase() {
  return <ComingSoon screen={screen} />
}
