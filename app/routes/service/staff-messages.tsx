import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '客服消息记录',
  purpose: '客服与学员之间的消息记录。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function StaffMessages() {
  return <ComingSoon screen={screen} />
}
