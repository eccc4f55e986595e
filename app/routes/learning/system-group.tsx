import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '体系课学习群',
  purpose: '体系课学员的学习群：加入方式、群公告和同期学员。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/customer', label: '联系客服' }],
}

export const meta = comingSoonMeta(screen)

export default function SystemGroup() {
  return <ComingSoon screen={screen} />
}
