import { Link } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, Loaded, moreLabel } from '#app/components/page-state/page-state.tsx'
import { yuan } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { usePagedList } from '#app/lib/use-paged-list.ts'
import type { z } from 'zod'
import { PointReasonNames } from '#shared/point-reasons.ts'
import type { PointsResponse } from '#server/modules/points/points.schema.ts'

export function meta() {
  return [{ title: '我的积分 - 自学' }]
}

type Points = z.infer<typeof PointsResponse>['data']
type Entry = Points['list'][number]

/** /points: the balance, how points work, and the ledger. */
export default function PointsScreen() {
  const points = usePagedList<Entry, number, Points>('/points', {
    member: true,
    query: { limit: 20 },
    errorText: '积分加载失败',
  })
  return (
    <main className={styles.page}>
      <NavBar title="我的积分" backTo="/mine" />
      <MemberOnly reason="登录后查看积分">
        <Loaded of={points}>
          {(data) => (
            <div className={styles.body}>
              <section className={`${styles.card} ${styles.center}`} aria-label="积分余额">
                <p className={styles.muted}>当前积分</p>
                <p className={styles.bigPrice} data-testid="points-balance">
                  {data.balance}
                </p>
                <p className={styles.muted}>约可抵 {yuan(data.balance * data.fen_per_point)}</p>
                <div className={styles.actions}>
                  <Link to="/course/creditPay" className={styles.secondaryButton}>
                    积分兑换课程
                  </Link>
                </div>
              </section>
              <p className={styles.notice}>
                每支付 1 元得 {data.earn_per_yuan} 积分；下单时 1 积分抵 {yuan(data.fen_per_point)}
                ，最多抵扣订单金额的 {data.max_percent}%。退款时积分随订单退回或扣回。
              </p>
              <section className={styles.card} aria-label="积分明细">
                <h2 className={styles.cardTitle}>积分明细</h2>
                {data.list.length === 0 ? (
                  <Empty message="还没有积分记录，购买课程即可获得积分" />
                ) : (
                  <>
                    {data.list.map((e) => (
                      <div key={e.id} className={styles.row}>
                        <span className={styles.rowLabel}>
                          <span>{PointReasonNames[e.reason]}</span>
                          <span className={styles.muted} style={{ display: 'block' }}>
                            {formatTime(e.created_at)}
                            {e.note ? ` · ${e.note}` : ''}
                          </span>
                        </span>
                        <span className={e.delta > 0 ? styles.plus : styles.minus}>
                          {e.delta > 0 ? `+${e.delta}` : e.delta}
                        </span>
                      </div>
                    ))}
                    {data.next_cursor ? (
                      <button
                        type="button"
                        className={lists.more}
                        onClick={points.loadMore}
                        disabled={points.more === 'loading'}
                      >
                        {moreLabel(points.more)}
                      </button>
                    ) : null}
                  </>
                )}
              </section>
            </div>
          )}
        </Loaded>
      </MemberOnly>
    </main>
  )
}
