import { Link } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { Empty, ListEnd, Loaded } from '#app/components/page-state/page-state.tsx'
import { formatTime } from '#app/lib/beijing-format.ts'
import { usePagedList } from '#app/lib/use-paged-list.ts'
import type { ExchangeRecord } from '#shared/api/exchange-records.ts'
import { ExchangeRecordKindNames } from '#shared/exchange-record-kinds.ts'

/**
 * /order4: the member's exchange record, every kind from one list (GET /exchange_records, whose sources are
 * server/use-cases/list-exchange-records.ts): points exchanges, redeem codes, and platform orders when they come.
 * Each record says what it gave, where from, whether it still counts (and why not), and leads to the course.
 */
export function ExchangeRecords() {
  const records = usePagedList<ExchangeRecord, string>('/exchange_records', {
    query: { limit: 20 },
    errorText: '兑换记录加载失败',
  })
  return (
    <Loaded of={records}>
      {(page) => (
        <div className={styles.body}>
          {page.list.length === 0 ? (
            <Empty message="还没有兑换记录" />
          ) : (
            <ul className={lists.list} aria-label="兑换记录">
              {page.list.map((r) => (
                <Row key={`${r.kind}:${r.id}`} r={r} />
              ))}
            </ul>
          )}
          {page.list.length ? (
            <ListEnd hasMore={page.next_cursor !== null} state={records.more} onMore={records.loadMore} />
          ) : null}
          <div className={styles.actions}>
            <Link to="/mine/redeem" className={styles.linkButton}>
              使用兑换码
            </Link>
            <Link to="/course/creditPay" className={styles.secondaryButton}>
              积分兑换课程
            </Link>
          </div>
        </div>
      )}
    </Loaded>
  )
}

function Row({ r }: { r: ExchangeRecord }) {
  const body = (
    <>
      <div className={lists.orderHead}>
        <span>
          {ExchangeRecordKindNames[r.kind]} · {formatTime(r.at)}
        </span>
        <span className={`${lists.state} ${r.state === 'active' ? lists.state_paid : lists.state_refunded}`}>
          {r.state === 'active' ? '已兑换' : '已收回'}
        </span>
      </div>
      <p className={styles.productTitle}>{r.title}</p>
      {r.state_note ? <p className={lists.refundNote}>{r.state_note}</p> : null}
      <div className={lists.orderFoot}>
        <span className={styles.muted}>{r.detail}</span>
      </div>
    </>
  )
  return (
    <li className={styles.card}>
      {r.link ? (
        <Link to={r.link} className={lists.orderLink}>
          {body}
        </Link>
      ) : (
        body
      )}
      {r.state === 'active' && r.course_id ? (
        <Link to={`/course/${r.course_id}.html`} className={styles.secondaryButton}>
          去学习
        </Link>
      ) : null}
    </li>
  )
}
