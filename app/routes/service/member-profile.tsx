import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '学员资料',
  purpose: '客服查看一位学员的资料、课程和学习情况。',
  arrives: 'later',
  links: [{ to: '/customer', label: '联系客服' }],
  staffOnly: true,
}

export const meta = comingSoonMeta(screen)

export default function MemberProfile() {
  return <ComingSoon screen={screen} />
}
