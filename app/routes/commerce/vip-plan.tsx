import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '会员方案详情',
  purpose: '一个会员方案的权益、有效期和价格。',
  arrives: 'commerce',
  links: [{ to: '/vip', label: '查看会员方案' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function VipPlan() {
  return <ComingSoon screen={screen} />
}
