import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '收益与提现记录',
  purpose: '推广收益明细和提现记录。',
  arrives: 'commerce',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function WalletRecords() {
  return <ComingSoon screen={screen} />
}
