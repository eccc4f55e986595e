import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '销售数据',
  purpose: '课程销售数据统计。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function Sales() {
  return <ComingSoon screen={screen} />
}
