import { useState } from 'react'
import { Link } from 'react-router'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { beijingMinute } from '#shared/time.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { SalesFigures } from '#shared/api/sales.ts'
import { formatFigure } from '#shared/money.ts'
import styles from './sales.module.css'

type Period = SalesFigures['periods'][number]
type Channel = Period['channels'][number]

export function meta() {
  return [{ title: '销售数据 - 自学' }]
}

/** A learner (or staff without sales.read) asked: the 403 the API answered, said plainly. */
function Denied() {
  return (
    <section className={styles.denied} aria-labelledby="denied-title" data-testid="sales-denied">
      <p className={styles.status}>403</p>
      <h1 id="denied-title" className={styles.deniedTitle}>
        没有权限查看销售数据
      </h1>
      <p className="zx-meta">销售数据只对运营、财务等有查看权限的员工开放。如需开通，请联系管理员。</p>
      <Link to="/mine" className={styles.back}>
        回到我的
      </Link>
    </section>
  )
}

/** One group of channels (the site's order kinds, or the exchange platforms) of a period: orders and yuan. */
function Channels({ title, rows, exchanged }: { title: string; rows: Channel[]; exchanged: boolean }) {
  const unpriced = rows.reduce((n, c) => n + c.unpriced_lines, 0)
  return (
    <section className={styles.card} aria-label={title}>
      <h2 className={styles.cardTitle}>{title}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{exchanged ? '平台' : '类型'}</th>
            <th scope="col">{exchanged ? '兑换订单' : '支付订单'}</th>
            <th scope="col">金额（元）</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.key} className={c.orders === 0 ? styles.zero : undefined} data-testid={c.key}>
              <td>{c.name}</td>
              <td>{c.orders}</td>
              <td>{formatFigure(c.revenue_fen)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {exchanged ? (
        <p className={styles.note}>
          金额为买家在平台实付的金额{unpriced > 0 ? `；另有 ${unpriced} 个订单行平台未提供金额，未计入` : ''}。
        </p>
      ) : null}
    </section>
  )
}

function Figures({ figures }: { figures: SalesFigures }) {
  const [chosen, choose] = useState<Period['key']>('today')
  const period = figures.periods.find((p) => p.key === chosen) ?? figures.periods[0]!
  return (
    <>
      <div className={styles.periods} role="group" aria-label="统计时段">
        {figures.periods.map((p) => (
          <button
            key={p.key}
            type="button"
            className={styles.period}
            aria-pressed={p.key === period.key}
            onClick={() => choose(p.key)}
            data-testid={`period-${p.key}`}
          >
            <span className={styles.periodName}>{p.name}</span>
            <span className={styles.revenue}>¥{formatFigure(p.revenue_fen)}</span>
            <span className="zx-caption">{p.orders} 笔</span>
          </button>
        ))}
      </div>
      <Channels
        title={`${period.name} · 本站订单`}
        rows={period.channels.filter((c) => c.source === 'site')}
        exchanged={false}
      />
      <Channels
        title={`${period.name} · 平台订单兑换`}
        rows={period.channels.filter((c) => c.source === 'exchange')}
        exchanged
      />
      <p className={styles.note}>
        按北京时间统计，截至 {beijingMinute(new Date(figures.as_of))}
        。本站订单按支付时间计（含之后退款的），平台订单按兑换时间计。
      </p>
    </>
  )
}

function Sales() {
  const answer = useApiGet<SalesFigures>('/data/sell', { member: true, errorText: '销售数据加载失败' })
  const state = answer.state
  if (state.status === 'loading') return <Loading />
  if (state.status === 'error')
    return state.code === 403 ? <Denied /> : <LoadError message={state.message} onRetry={answer.retry} />
  return <Figures figures={state.data} />
}

/** /data/sell: the sales figures of today, yesterday and this month for staff who may read sales (spec 7). */
export default function SalesPage() {
  return (
    <div className="zx-screen">
      <NavBar title="销售数据" backTo="/mine" />
      <main className={styles.body}>
        <MemberOnly reason="登录后查看销售数据" target="/data/sell">
          <Sales />
        </MemberOnly>
      </main>
    </div>
  )
}
