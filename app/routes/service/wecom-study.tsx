import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '学习详情（企业微信）',
  purpose: '企业微信侧边栏：当前聊天学员的学习详情。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function WecomStudy() {
  return <ComingSoon screen={screen} />
}
