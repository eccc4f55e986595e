import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '开通会员',
  purpose: '选择会员方案并支付，开通后会员免费课程可以直接学习。',
  arrives: 'commerce',
  links: [{ to: '/vip', label: '查看会员方案' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function VipBuy() {
  return <ComingSoon screen={screen} />
}
