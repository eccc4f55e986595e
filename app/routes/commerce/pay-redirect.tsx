import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '支付结果确认',
  purpose: '从手机网页支付返回后，在这里确认订单状态并跳转到支付结果。',
  arrives: 'commerce',
  links: [{ to: '/mine', label: '回到我的' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function PayRedirect() {
  return <ComingSoon screen={screen} />
}
