import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router'
import { services } from '#app/lib/services-context.ts'
import { formatYuan } from '#shared/money.ts'
import { Cards } from '../markup.tsx'

export const meta = () => [{ title: '会员 - 自学' }]

/** The same read as the app's VIP page. */
export async function loader({ context }: LoaderFunctionArgs) {
  return services(context).vip.centre()
}

export default function Vip() {
  const { plans, courses } = useLoaderData<typeof loader>()
  return (
    <main>
      <h1>会员免费课，随心学</h1>
      {plans.map((p) => (
        <Link key={p.id} to={`/vipBuy?plan_id=${p.id}`}>
          {p.badge} {p.name} ¥{formatYuan(p.price_fen)} {p.description || `${p.days} 天有效`}
        </Link>
      ))}
      <Cards courses={courses} />
    </main>
  )
}
