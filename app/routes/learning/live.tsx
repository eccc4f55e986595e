import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '直播课',
  purpose: '直播课程的上课页：课程表、直播状态（即将开始、直播中、回放），以及直播结束后的回放。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function LiveCourse() {
  return <ComingSoon screen={screen} />
}
