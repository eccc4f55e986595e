import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的海报',
  purpose: '你制作过的分享海报。',
  arrives: 'learning',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function MyPosters() {
  return <ComingSoon screen={screen} />
}
