import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '支付结果',
  purpose: '显示支付是否成功，以及接下来可以做什么。',
  arrives: 'commerce',
  links: [{ to: '/mine', label: '回到我的' }, { to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function PaymentResult() {
  return <ComingSoon screen={screen} />
}
