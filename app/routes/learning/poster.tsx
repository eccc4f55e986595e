import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '分享海报',
  purpose: '为课程生成带有你的推广码二维码的分享海报，保存后发给朋友。',
  arrives: 'learning',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/mine', label: '回到我的' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function SharePoster() {
  return <ComingSoon screen={screen} />
}
