import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '海报模板',
  purpose: '可以选用的分享海报模板。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function PosterTemplates() {
  return <ComingSoon screen={screen} />
}
