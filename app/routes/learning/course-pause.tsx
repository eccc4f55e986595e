import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '申请暂停学习',
  purpose: '申请暂停或退出一门课程的学习，并查看申请进度。',
  arrives: 'learning',
  links: [
    { to: '/mine', label: '回到我的' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function CoursePause() {
  return <ComingSoon screen={screen} />
}
