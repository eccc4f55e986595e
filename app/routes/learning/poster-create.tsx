import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '制作海报',
  purpose: '从模板制作一张新的分享海报。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function PosterCreate() {
  return <ComingSoon screen={screen} />
}
