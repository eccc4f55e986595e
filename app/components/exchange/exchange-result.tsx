import { Link } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import type { ExchangeResult } from '#server/modules/exchange/exchange.schema.ts'
import own from './exchange.module.css'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * What one exchanged order gave: its courses (each with a link to study it, `studyLabel`: 去学习 on /ke2, 开始学习
 * on the /data/* screens) and VIP days.
 */
export function ExchangeResultCard({ result, studyLabel = '去学习' }: { result: ExchangeResult; studyLabel?: string }) {
  return (
    <section className={styles.card} aria-label="兑换结果" data-testid="exchange-result">
      <h2 className={styles.cardTitle}>{result.already ? '你已兑换过这个订单' : '兑换成功'}</h2>
      {result.courses.map((c) => (
        <div key={c.id} className={own.course}>
          <CoverImage loading="lazy" className={own.cover} src={c.cover} sizes="96px" />
          <span className={own.courseTitle}>{c.title}</span>
          <Link className={styles.linkButton} to={`/course/${c.id}.html`}>
            {studyLabel}
          </Link>
        </div>
      ))}
      {result.vip_days > 0 ? (
        <div className={own.course}>
          <span className={own.courseTitle}>VIP 会员 {result.vip_days} 天</span>
          <Link className={styles.linkButton} to="/vip">
            去看看
          </Link>
        </div>
      ) : null}
    </section>
  )
}
