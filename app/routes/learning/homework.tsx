import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '课程作业',
  purpose: '提交课程作业，查看老师的批改和点评。',
  arrives: 'learning',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function Homework() {
  return <ComingSoon screen={screen} />
}
