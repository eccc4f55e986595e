import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '积分任务',
  purpose: '完成学习、分享等任务可以获得积分。',
  arrives: 'commerce',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/ke', label: '浏览全部课程' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function Tasks() {
  return <ComingSoon screen={screen} />
}
