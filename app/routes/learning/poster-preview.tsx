import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '海报预览',
  purpose: '预览并保存这门课程的分享海报。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function PosterPreview() {
  return <ComingSoon screen={screen} />
}
