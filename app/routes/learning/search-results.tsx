import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '搜索结果',
  purpose: '按关键词找到的课程会列在这里。',
  arrives: 'learning',
  links: [{ to: '/boutique', label: '按分类找课程' }, { to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function SearchResults() {
  return <ComingSoon screen={screen} />
}
