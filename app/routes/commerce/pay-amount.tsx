import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '支付费用',
  purpose: '支付指定金额的费用，例如学费或定金。',
  arrives: 'commerce',
  links: [{ to: '/customer', label: '联系客服' }, { to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function PayAmount() {
  return <ComingSoon screen={screen} />
}
