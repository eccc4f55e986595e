import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的体系课',
  purpose: '列出你已加入的体系课（由多门课程组成的系统学习计划）和每门课的学习进度。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function MySystemCourses() {
  return <ComingSoon screen={screen} />
}
