import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '搜索课程',
  purpose: '输入关键词搜索课程，这里也会显示热门搜索词和你的搜索历史。',
  arrives: 'learning',
  links: [{ to: '/boutique', label: '按分类找课程' }, { to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function Search() {
  return <ComingSoon screen={screen} />
}
