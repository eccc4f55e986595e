import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '我的积分',
  purpose: '积分余额和每一笔积分的获得与使用记录。',
  arrives: 'commerce',
  links: [{ to: '/mine', label: '回到我的' }, { to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function Points() {
  return <ComingSoon screen={screen} />
}
