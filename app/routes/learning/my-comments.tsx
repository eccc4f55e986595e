import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的评论',
  purpose: '你在课程和视频下发表过的评论，以及收到的回复。',
  arrives: 'learning',
  links: [{ to: '/mine', label: '回到我的' }, { to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function MyComments() {
  return <ComingSoon screen={screen} />
}
