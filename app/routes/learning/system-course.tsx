import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '体系课',
  purpose: '体系课是按学习路径编排的一组课程。这里将展示整个学习计划、每个阶段的课程和学习进度。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/boutique', label: '按分类找课程' }],
}

export const meta = comingSoonMeta(screen)

export default function SystemCourse() {
  return <ComingSoon screen={screen} />
}
