import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的收藏',
  purpose: '收藏的课程和视频都在这里，可以批量取消收藏，也可以把收藏的课程一起购买。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function Favourites() {
  return <ComingSoon screen={screen} />
}
