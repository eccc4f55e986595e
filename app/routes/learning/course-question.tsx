import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '课程问答',
  purpose: '针对课程内容提问，查看老师和同学的解答。',
  arrives: 'learning',
  links: [
    { to: '/ke', label: '浏览全部课程' },
    { to: '/customer', label: '联系客服' },
  ],
}

export const meta = comingSoonMeta(screen)

export default function CourseQuestion() {
  return <ComingSoon screen={screen} />
}
