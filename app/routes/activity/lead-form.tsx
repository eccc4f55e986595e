import { useLocation, type MetaArgs } from 'react-router'
import { ComingSoon, type ComingSoonScreen } from '#app/components/coming-soon/coming-soon.tsx'

/** /form/1 is the course sign-up form, /form/2 the consultation form. */
export function leadFormScreen(pathname: string): ComingSoonScreen {
  const consult = pathname.endsWith('/2')
  return {
    title: consult ? '免费咨询' : '课程报名',
    purpose: consult
      ? '留下你的联系方式和想学的方向，课程顾问会尽快联系你。'
      : '填写报名信息预约课程，课程顾问会联系你确认开课安排。',
    arrives: 'later',
    links: [
      { to: '/customer', label: '联系客服' },
      { to: '/ke', label: '浏览全部课程' },
    ],
  }
}

export function meta({ location }: MetaArgs) {
  return [{ title: `${leadFormScreen(location.pathname).title} - 自学` }]
}

export default function LeadForm() {
  const { pathname } = useLocation()
  return <ComingSoon screen={leadFormScreen(pathname)} />
}
