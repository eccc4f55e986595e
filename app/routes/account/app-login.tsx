import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: 'App 登录',
  purpose: '从自学 App 跳转过来时在这里自动完成登录。',
  arrives: 'later',
  links: [{ to: '/mine', label: '回到我的' }],
}

export const meta = comingSoonMeta(screen)

export default function AppLogin() {
  return <ComingSoon screen={screen} />
}
