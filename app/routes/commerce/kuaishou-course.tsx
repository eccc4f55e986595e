import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '快手课程',
  purpose: '在快手购买的课程从这里用订单兑换，兑换后即可在本站学习。',
  arrives: 'commerce',
  links: [
    { to: '/customer', label: '联系客服' },
    { to: '/ke', label: '浏览全部课程' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function KuaishouCourse() {
  return <ComingSoon screen={screen} />
}
