import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '活动',
  purpose: '当前活动的介绍、规则和报名入口。',
  arrives: 'later',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ActivityHome() {
  return <ComingSoon screen={screen} />
}
