import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '签署合同',
  purpose: '阅读并在线签署学费合同。',
  arrives: 'commerce',
  links: [
    { to: '/customer', label: '联系客服' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ContractSign() {
  return <ComingSoon screen={screen} />
}
