import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { formatYuan } from '#shared/money.ts'
import { formatCount } from '#app/components/course-card/course-format.ts'

export const meta = () => [{ title: '会员 - 自学' }]

/** The same read as the app's VIP page. */
export async function loader({ context }: LoaderFunctionArgs) {
  return services(context).vip.centre()
}

/** What the app's VIP tab shows: the pitch, the plans (the badge-marked one chosen), the VIP-free courses. */
export default function Vip() {
  const { plans, courses } = useLoaderData<typeof loader>()
  const chosen = plans.find((p) => p.badge) ?? plans[0]
  return (
    <main>
      <p>自学 VIP</p>
      <h1>会员免费课，随心学</h1>
      <p>开通后，标有“VIP 免费”的课程在有效期内都可以免费学习。</p>
      <h2>会员方案</h2>
      {plans.map((p) => (
        <button key={p.id} type="button">
          {p.badge} {p.name} ¥{formatYuan(p.price_fen)}
          {p.original_price_fen && p.original_price_fen > p.price_fen ? (
            <s>¥{formatYuan(p.original_price_fen)}</s>
          ) : null}
          {p.description || `${p.days} 天有效`}
        </button>
      ))}
      {chosen ? (
        <Link to={`/vipBuy?plan_id=${chosen.id}`}>
          立即开通 · {chosen.name} ¥{formatYuan(chosen.price_fen)}
        </Link>
      ) : null}
      <h2>会员免费课程</h2>
      <Link to="/ke">全部课程</Link>
      <ul>
        {courses.map((c) => (
          <li key={c.id}>
            <Link to={`/course/${c.id}.html`}>
              <img src={c.cover} alt="" width={128} height={72} />
              <b>{c.title}</b>
              <small>
                {c.teacher_name ? `${c.teacher_name} · ` : ''}
                {formatCount(c.student_count)}人学过
              </small>
              VIP 免费{c.price_fen > 0 ? <s>¥{formatYuan(c.price_fen)}</s> : null}
            </Link>
          </li>
        ))}
      </ul>
      <button type="button">咨询</button>
    </main>
  )
}
