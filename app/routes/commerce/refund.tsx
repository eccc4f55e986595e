import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import lists from '#app/components/checkout/order-list.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loaded } from '#app/components/page-state/page-state.tsx'
import { api } from '#app/lib/api.ts'
import { yuan } from '#app/lib/pay.ts'
import { formatTime } from '#app/lib/beijing-format.ts'
import { toast } from '#app/lib/toast.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { z } from 'zod'
import type { RefundCheck } from '#server/modules/refunds/refunds.schema.ts'
import { chosenAmount, RefundLineChooser, refundableItemIds } from './refund-lines.tsx'

export function meta() {
  return [{ title: '申请退款 - 自学' }]
}

type Check = z.infer<typeof RefundCheck>
type RefundState = Check['refunds'][number]['state']

const REFUND_LABEL: Record<RefundState, string> = {
  requested: '已提交，等待审核',
  rejected: '未通过',
  processing: '已同意，退款处理中',
  succeeded: '退款成功',
  failed: '退款失败，客服会联系你',
}

const REASONS = ['不想学了', '课程内容与描述不符', '重复购买', '买错了课程']

/** /refund/{order_no}: whether this order can be refunded (and why not), the request form, and past requests. */
export default function RefundScreen() {
  const { id = '' } = useParams()
  const checked = useApiGet<Check>(id ? '/refunds/check' : null, {
    member: true,
    query: { order_no: id },
    errorText: '退款信息加载失败',
  })
  const [reason, setReason] = useState('')
  const [sending, setSending] = useState(false)
  // Bundle and favourites orders: the courses ticked to give back (null: every refundable one).
  const [picked, setPicked] = useState<Set<number> | null>(null)
  const lines = checked.data?.lines ?? null
  const chosen = picked ?? refundableItemIds(lines)
  const toggle = (itemId: number) => {
    const next = new Set(chosen)
    if (next.has(itemId)) next.delete(itemId)
    else next.add(itemId)
    setPicked(next)
  }

  const submit = async () => {
    const text = reason.trim()
    if (text.length < 2) {
      toast('请填写退款原因（至少 2 个字）')
      return
    }
    if (lines && chosen.size === 0) {
      toast('请选择要退的课程')
      return
    }
    setSending(true)
    try {
      await api.post('/refunds', { order_no: id, reason: text, ...(lines && { order_item_ids: [...chosen] }) })
      toast('退款申请已提交')
      setReason('')
      setPicked(null)
      checked.reload()
    } catch {
      // toasted by the wrapper
    } finally {
      setSending(false)
    }
  }

  return (
    <main className={styles.page}>
      <NavBar title="申请退款" backTo={id ? `/order/${encodeURIComponent(id)}` : '/order'} />
      {!id ? (
        <LoadError message="缺少订单号" />
      ) : (
        <MemberOnly reason="登录后申请退款">
          <Loaded of={checked}>
            {(check) => (
              <div className={styles.body}>
                <section className={styles.card} aria-label="退款规则">
                  <h2 className={styles.cardTitle}>退款规则</h2>
                  <p className={styles.notice}>
                    支付后 {check.window_days} 天内可申请退款；课程订单需观看不足 {check.max_watched_percent}
                    %。审核通过后原路退回，使用的优惠券和积分一并返还，课程的学习权限随之收回。
                    {check.lines
                      ? '多门课程的订单可按课程退款：每门课按实付金额分摊，只收回所退课程的权限；优惠券和积分在整单退完时返还。'
                      : ''}
                  </p>
                  {check.watched_percent !== null ? <CardRow label="已观看">{check.watched_percent}%</CardRow> : null}
                  {check.deadline ? <CardRow label="申请截止">{formatTime(check.deadline)}</CardRow> : null}
                </section>

                {check.refunds.length > 0 ? (
                  <section className={styles.card} aria-label="退款进度">
                    <h2 className={styles.cardTitle}>退款进度</h2>
                    <ul className={lists.list}>
                      {check.refunds.map((r) => (
                        <li key={r.refund_no}>
                          <div className={styles.row}>
                            <span className={styles.rowLabel}>{r.kind === 'automatic' ? '自动退款' : '退款申请'}</span>
                            <span className={`${styles.rowValue} ${lists.state}`} data-testid="refund-state">
                              {REFUND_LABEL[r.state]}
                            </span>
                          </div>
                          <p className={styles.muted}>
                            {yuan(r.amount_fen)} · 提交于 {formatTime(r.created_at)}
                            {r.completed_at ? ` · 完成于 ${formatTime(r.completed_at)}` : ''}
                          </p>
                          {r.lines ? (
                            <p className={styles.muted} data-testid="refund-lines">
                              退款课程：{r.lines.map((l) => `${l.title}（${yuan(l.amount_fen)}）`).join('、')}
                            </p>
                          ) : null}
                          {r.reason ? <p className={styles.muted}>原因：{r.reason}</p> : null}
                          {r.decision_note ? <p className={styles.muted}>审核说明：{r.decision_note}</p> : null}
                        </li>
                      ))}
                    </ul>
                  </section>
                ) : null}

                {check.refundable ? (
                  <section className={styles.card} aria-label="退款申请">
                    <h2 className={styles.cardTitle}>
                      退款金额{' '}
                      <span className={styles.price} data-testid="refund-amount">
                        {yuan(check.lines ? chosenAmount(check.lines, chosen) : check.amount_fen)}
                      </span>
                      {check.points_used > 0 && !check.lines ? (
                        <span className={styles.muted}>（另退回 {check.points_used} 积分）</span>
                      ) : null}
                    </h2>
                    {check.lines ? (
                      <RefundLineChooser
                        lines={check.lines}
                        maxWatched={check.max_watched_percent}
                        chosen={chosen}
                        onToggle={toggle}
                      />
                    ) : null}
                    <div className={styles.plans} role="group" aria-label="常见原因">
                      {REASONS.map((r) => (
                        <button
                          key={r}
                          type="button"
                          className={`${styles.plan} ${reason === r ? styles.planActive : ''}`}
                          style={{ minHeight: 44 }}
                          aria-pressed={reason === r}
                          onClick={() => setReason(r)}
                        >
                          {r}
                        </button>
                      ))}
                    </div>
                    <label
                      htmlFor="refund-reason"
                      className={styles.muted}
                      style={{ display: 'block', margin: '12px 0 4px' }}
                    >
                      退款原因
                    </label>
                    <textarea
                      id="refund-reason"
                      className={styles.textarea}
                      maxLength={200}
                      value={reason}
                      onChange={(e) => setReason(e.target.value)}
                      placeholder="请告诉我们退款的原因（2–200 字）"
                    />
                    <div className={styles.actions} style={{ padding: '12px 0 0' }}>
                      <button type="button" className={styles.button} disabled={sending} onClick={() => void submit()}>
                        {sending ? '提交中…' : '提交退款申请'}
                      </button>
                    </div>
                  </section>
                ) : (
                  <section className={styles.card} aria-label="不可退款">
                    <p className={styles.notice}>{check.msg || '这笔订单暂不能申请退款'}</p>
                    <div className={styles.actions} style={{ padding: '12px 0 0' }}>
                      <Link to="/customer" className={styles.secondaryButton}>
                        联系客服
                      </Link>
                    </div>
                  </section>
                )}
              </div>
            )}
          </Loaded>
        </MemberOnly>
      )}
    </main>
  )
}
