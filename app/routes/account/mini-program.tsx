import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '打开小程序',
  purpose: '从这里跳转到自学微信小程序。',
  arrives: 'later',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function MiniProgram() {
  return <ComingSoon screen={screen} />
}
