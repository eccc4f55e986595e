import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '学习进度',
  purpose: '一门课程的作业和学习进度：完成了哪些视频、交了哪些作业。',
  arrives: 'learning',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function CourseProgress() {
  return <ComingSoon screen={screen} />
}
