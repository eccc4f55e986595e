import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的参赛作品',
  purpose: '你报名的活动和提交的作品。',
  arrives: 'later',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ActivityMyEntry() {
  return <ComingSoon screen={screen} />
}
