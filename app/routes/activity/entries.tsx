import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '参赛作品',
  purpose: '活动的全部参赛作品，可以为喜欢的作品投票。',
  arrives: 'later',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ActivityEntries() {
  return <ComingSoon screen={screen} />
}
