import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的钱包',
  purpose: '钱包余额、推广收益和提现。',
  arrives: 'commerce',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function Wallet() {
  return <ComingSoon screen={screen} />
}
