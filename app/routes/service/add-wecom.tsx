import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '添加老师企业微信',
  purpose: '添加你的专属老师的企业微信，获得学习指导。',
  arrives: 'later',
  links: [
    { to: '/customer', label: '联系客服' },
    { to: '/ke', label: '浏览全部课程' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function AddWecom() {
  return <ComingSoon screen={screen} />
}
