import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '视频播放',
  purpose: '在这里观看课程视频：高清播放、自动记住看到哪里、记笔记和看评论。可免费试看的视频也从这里播放。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/boutique', label: '按分类找课程' }],
}

export const meta = comingSoonMeta(screen)

export default function VideoPlayer() {
  return <ComingSoon screen={screen} />
}
