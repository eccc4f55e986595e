import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '作品详情',
  purpose: '一件参赛作品的详情和票数。',
  arrives: 'later',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function ActivityEntry() {
  return <ComingSoon screen={screen} />
}
