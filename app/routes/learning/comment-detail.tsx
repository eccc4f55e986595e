import { ComingSoon, comingSoonMeta, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

const screen: ComingSoonScreen = {
  title: '评论详情',
  purpose: '查看一条课程评论及它的全部回复，并参与回复和点赞。',
  arrives: 'learning',
  links: [{ to: '/ke', label: '浏览全部课程' }],
}

export const meta = comingSoonMeta(screen)

export default function CommentDetail() {
  return <ComingSoon screen={screen} />
}
