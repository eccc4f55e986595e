import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '申请退款',
  purpose: '提交退款申请并查看处理进度。',
  arrives: 'commerce',
  links: [{ to: '/mine', label: '回到我的' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function Refund() {
  return <ComingSoon screen={screen} />
}
