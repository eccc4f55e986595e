import { useState } from 'react'
import { Link } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { api, ApiError } from '#app/lib/api.ts'
import { yuan } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { toast } from '#app/lib/toast.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { z } from 'zod'
import type { EnrolmentView, ExitQuoteResponse } from '#server/modules/tuition/tuition.schema.ts'
import { RecordScreen } from './record-screen.tsx'
import own from './tuition.module.css'

export function meta() {
  return [{ title: '休学与退学 - 自学' }]
}

type Quote = z.infer<typeof ExitQuoteResponse>['data']

/** /course/pause/{enrolment id}: pause (休学) or resume, and exit (退学) after seeing what the contract gives back. */
export default function PauseScreen() {
  return (
    <RecordScreen title="休学与退学" backTo="/ke3" reason="登录后办理休学或退学" missing="请从我的体系课进入">
      {(id) => <Manage id={id} />}
    </RecordScreen>
  )
}

function Manage({ id }: { id: number }) {
  const got = useApiGet<{ list: EnrolmentView[] }>('/tuition', { member: true })
  const [days, setDays] = useState('30')
  const [quote, setQuote] = useState<Quote | null>(null)
  const [busy, setBusy] = useState(false)
  const act = async (fn: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await fn()
      toast(done)
      got.reload()
    } catch (e) {
      toast(e instanceof ApiError ? e.message : '操作失败，请稍后再试')
    } finally {
      setBusy(false)
    }
  }
  /** A button that posts to `path` and says `done`. */
  const post = (label: string, path: string, body: Record<string, unknown>, done: string) => (
    <button
      type="button"
      className={styles.button}
      disabled={busy}
      onClick={() => void act(() => api.post(path, body, { quiet: true }), done)}
    >
      {label}
    </button>
  )
  if (got.state.status === 'loading') return <p className={styles.muted}>加载中…</p>
  if (got.state.status === 'error') return <LoadError message={got.state.message} onRetry={got.retry} />
  const e = got.state.data.list.find((x) => x.id === id)
  if (!e) return <LoadError message="没有找到这份报名" />
  const running = e.state === 'paying' || e.state === 'enrolled'

  return (
    <div className={styles.body}>
      <section className={styles.card} aria-label="学籍">
        <h2 className={styles.cardTitle}>{e.course_title}</h2>
        <CardRow label="学习有效期至">{e.expires_at ? formatTime(e.expires_at) : '未开课'}</CardRow>
        <CardRow label="已休学">{e.paused_days} 天</CardRow>
        {e.state === 'paused' && e.pause_until ? <CardRow label="休学至">{formatTime(e.pause_until)}</CardRow> : null}
      </section>

      {running && !e.exit_requested_at ? (
        <section className={styles.card} aria-label="申请休学">
          <h2 className={styles.cardTitle}>申请休学</h2>
          <label className={own.field}>
            <span className={own.label}>休学天数（休学期间暂停学习，有效期顺延）</span>
            <input className={own.input} inputMode="numeric" value={days} onChange={(ev) => setDays(ev.target.value)} />
          </label>
          {post('确认休学', '/course/pause', { enrolment_id: id, days: Number(days) }, '已休学')}
        </section>
      ) : null}
      {e.state === 'paused' ? (
        <section className={styles.card}>{post('提前复学', '/course/resume', { enrolment_id: id }, '已复学')}</section>
      ) : null}

      <section className={styles.card} aria-label="申请退学">
        <h2 className={styles.cardTitle}>申请退学</h2>
        {e.state === 'exited' ? (
          <p className={styles.muted}>已退学，退款 {yuan(e.exit_refund_fen ?? 0)} 按原支付方式退回。</p>
        ) : e.exit_requested_at ? (
          <p className={styles.muted}>已提交退学申请，可退 {yuan(e.exit_refund_fen ?? 0)}，等待工作人员审核。</p>
        ) : quote ? (
          <>
            <CardRow label="已缴学费">{yuan(quote.paid_fen)}</CardRow>
            <CardRow label="已学习">
              {quote.used_days} / {quote.study_days} 天
            </CardRow>
            <CardRow label="手续费">{yuan(quote.exit_fee_fen)}</CardRow>
            <CardRow label="按合同可退" price>
              {yuan(quote.refund_fen)}
            </CardRow>
            {post(
              `确认退学，退回 ${yuan(quote.refund_fen)}`,
              '/course/exit',
              { enrolment_id: id, refund_fen: quote.refund_fen },
              '已提交退学申请',
            )}
          </>
        ) : (
          <button
            type="button"
            className={styles.secondaryButton}
            onClick={() =>
              void api
                .get<Quote>('/course/exit', { enrolment_id: id }, { quiet: true })
                .then(setQuote, (err: unknown) => toast(err instanceof ApiError ? err.message : '加载失败'))
            }
          >
            查看可退金额
          </button>
        )}
        <p className={styles.notice}>
          退款按<Link to="/contract">合同</Link>约定计算：未使用天数占学习期的比例 ×
          已缴学费，扣除手续费，不超过已缴金额。
        </p>
      </section>
    </div>
  )
}
