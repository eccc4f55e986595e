import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '关注公众号',
  purpose: '扫码关注自学公众号，及时收到课程更新和学习提醒。',
  arrives: 'later',
  links: [
    { to: '/customer', label: '联系客服' },
    { to: '/ke', label: '浏览全部课程' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function Follow() {
  return <ComingSoon screen={screen} />
}
