import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '积分兑换课程',
  purpose: '用积分兑换课程。',
  arrives: 'commerce',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function CreditPay() {
  return <ComingSoon screen={screen} />
}
