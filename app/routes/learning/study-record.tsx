import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '学习记录',
  purpose: '按时间列出你看过的课程和视频，以及每门课的学习进度，方便接着学。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function StudyRecord() {
  return <ComingSoon screen={screen} />
}
