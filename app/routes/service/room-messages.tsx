import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '群聊消息记录',
  purpose: '学员在学习群里的消息记录。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function RoomMessages() {
  return <ComingSoon screen={screen} />
}
