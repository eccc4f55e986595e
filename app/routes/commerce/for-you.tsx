import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '为你推荐',
  purpose: '为你挑选的课程组合，可以一键购买整套课程。',
  arrives: 'commerce',
  links: [{ to: '/ke', label: '浏览全部课程' }, { to: '/vip', label: '查看会员方案' }],
}

export const meta = comingSoonMeta(screen)

export default function ForYou() {
  return <ComingSoon screen={screen} />
}
