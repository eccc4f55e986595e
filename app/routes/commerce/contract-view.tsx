import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '查看合同',
  purpose: '查看你已签署的合同。',
  arrives: 'commerce',
  links: [
    { to: '/customer', label: '联系客服' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ContractView() {
  return <ComingSoon screen={screen} />
}
