import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '活动结果',
  purpose: '活动的评选结果和获奖名单。',
  arrives: 'later',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ActivityResults() {
  return <ComingSoon screen={screen} />
}
