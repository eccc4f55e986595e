import { useCallback, useState } from 'react'
import { Link } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import { PayFooter, usePayFlow } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { yuan } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { EnrolmentView } from '#server/modules/tuition/tuition.schema.ts'
import { HuabeiChoice } from './huabei-choice.tsx'

// Tuition (issue 15 §3): the schedule of each enrolment, paid / due / overdue in yuan, and paying one of it.

const STATUS: Record<EnrolmentView['schedule'][number]['status'], string> = {
  paid: '已缴',
  due: '待缴',
  overdue: '已逾期',
  refunded: '已退款',
}

const STATE: Record<EnrolmentView['state'], string> = {
  offered: '待签约',
  signed: '已签约，待缴费',
  paying: '缴费中',
  enrolled: '已缴清',
  paused: '休学中',
  overdue: '欠费暂停',
  exited: '已退学',
}

function Schedule({ e, choose }: { e: EnrolmentView; choose?: (id: number) => void }) {
  return (
    <section className={styles.card} aria-label={`${e.course_title} 缴费计划`}>
      <h2 className={styles.cardTitle}>
        {e.course_title} · {STATE[e.state]}
      </h2>
      <CardRow label="总学费">{yuan(e.total_fen)}</CardRow>
      <CardRow label="已缴">{yuan(e.paid_fen)}</CardRow>
      {e.schedule.map((p) => (
        <CardRow key={p.id} label={`${p.label}（${STATUS[p.status]}）`}>
          {yuan(p.amount_fen)}
          <span className={styles.muted}>
            {' '}
            {p.paid_at ? `${formatTime(p.paid_at)} 已缴` : p.due_at ? `${formatTime(p.due_at)} 前` : '签约后缴纳'}
          </span>
          {choose && p.status !== 'paid' && p.status !== 'refunded' ? (
            <button type="button" className={styles.textButton} onClick={() => choose(p.id)}>
              缴这一笔
            </button>
          ) : null}
        </CardRow>
      ))}
    </section>
  )
}

/** /order3: every enrolment's schedule above the tuition and amount orders. */
export function TuitionSchedules() {
  const got = useApiGet<{ list: EnrolmentView[] }>('/tuition', { member: true })
  if (got.state.status !== 'ready' || got.state.data.list.length === 0) return null
  return (
    <div className={styles.body}>
      {got.state.data.list.map((e) => (
        <div key={e.id}>
          <Schedule e={e} />
          {e.schedule.some((p) => p.status === 'due' || p.status === 'overdue') && e.state !== 'exited' ? (
            <Link to={`/PayAmount?enrolment_id=${e.id}`} className={styles.linkButton}>
              去缴费
            </Link>
          ) : null}
        </div>
      ))}
    </div>
  )
}

/** /PayAmount?enrolment_id=: the schedule, and paying the next due payment (or the one chosen). */
export function TuitionPay({ enrolmentId }: { enrolmentId: number }) {
  const got = useApiGet<{ list: EnrolmentView[] }>('/tuition', { member: true })
  const flow = usePayFlow()
  const [chosen, setChosen] = useState<number | null>(null)
  const [periods, setPeriods] = useState<number | null>(null)
  const e = got.state.status === 'ready' ? got.state.data.list.find((x) => x.id === enrolmentId) : undefined
  const payable = e?.schedule.filter((p) => p.status === 'due' || p.status === 'overdue') ?? []
  const payment = payable.find((p) => p.id === chosen) ?? payable[0]
  // Huabei only where the plan offers it and Alipay is a method here; another method means no instalments.
  const huabei = e?.huabei && flow.methods.includes('alipay_wap') ? e.huabei : null
  const instalments = huabei && flow.method === 'alipay_wap' ? periods : null
  const { pay, setMethod } = flow
  const choosePeriods = useCallback(
    (n: number | null) => {
      setPeriods(n)
      if (n !== null) setMethod('alipay_wap')
    },
    [setMethod],
  )
  const onPay = useCallback(() => {
    if (payment)
      void pay('/pay/tuition', {
        enrolment_id: enrolmentId,
        payment_id: payment.id,
        ...(instalments !== null && { huabei_periods: instalments }),
      })
  }, [enrolmentId, pay, payment, instalments])

  if (got.state.status === 'loading') return <p className={styles.muted}>加载中…</p>
  if (got.state.status === 'error') return <LoadError message={got.state.message} onRetry={got.retry} />
  if (!e) return <LoadError message="没有找到这份报名，请向课程顾问重新获取链接" />
  return (
    <div className={styles.body}>
      <Schedule e={e} choose={setChosen} />
      {payment && e.state !== 'exited' ? (
        <>
          <section className={`${styles.card} ${styles.center}`} aria-label="本次缴费">
            <p className={styles.productTitle}>本次缴纳：{payment.label}</p>
            <p className={styles.bigPrice}>{yuan(payment.amount_fen)}</p>
          </section>
          {huabei ? <HuabeiChoice huabei={huabei} value={instalments} onChange={choosePeriods} /> : null}
          <PayFooter flow={flow} amountFen={payment.amount_fen} onPay={onPay} agreement="tuition" />
        </>
      ) : (
        <p className={styles.notice}>学费已全部缴清，感谢你的信任。</p>
      )}
    </div>
  )
}
