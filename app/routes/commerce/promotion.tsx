import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '推广中心',
  purpose: '推广计划总览：你的推广码、邀请人数和累计收益。',
  arrives: 'commerce',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function Promotion() {
  return <ComingSoon screen={screen} />
}
