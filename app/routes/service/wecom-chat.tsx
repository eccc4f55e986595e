import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '学员资料（企业微信）',
  purpose: '企业微信侧边栏：当前聊天学员的资料和已购课程。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function WecomChat() {
  return <ComingSoon screen={screen} />
}
