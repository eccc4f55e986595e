import { useCallback } from 'react'
import { useSearchParams } from 'react-router'
import { PayFooter, useAskLogin, usePayFlow } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { yuan } from '#app/lib/pay.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { yuanToFen } from '#shared/money.ts'
import { TuitionPay } from './tuition-schedule.tsx'

export function meta() {
  return [{ title: '在线缴费 - 自学' }]
}

/** The `amount` of the link ("99.5" yuan) in fen, from 0.01 to 50,000 yuan; null for anything else. */
function amountFen(text: string | null): number | null {
  const fen = yuanToFen(text?.trim())
  return fen !== null && fen >= 1 && fen <= 5_000_000 ? fen : null
}

/**
 * /PayAmount?amount=&title=: pay a given amount from a link staff send; /PayAmount?enrolment_id=: pay tuition as the
 * signed contract's schedule says (issue 15).
 */
export default function PayAmount() {
  const [params] = useSearchParams()
  const enrolmentId = Number(params.get('enrolment_id'))
  if (enrolmentId > 0)
    return (
      <main className={styles.page}>
        <NavBar title="缴纳学费" backTo="/order3" />
        <MemberOnly reason="登录后缴纳学费">
          <TuitionPay enrolmentId={enrolmentId} />
        </MemberOnly>
      </main>
    )
  return <AmountPay />
}

function AmountPay() {
  const [params] = useSearchParams()
  const fen = amountFen(params.get('amount'))
  const title = (params.get('title') ?? '').trim().slice(0, 60) || '在线缴费'
  const hydrated = useHydrated()
  const { token } = useAuth()
  useAskLogin(hydrated, fen ? token : 'no amount: nothing to log in for')
  const flow = usePayFlow()

  const { pay } = flow
  const onPay = useCallback(() => {
    if (fen) void pay('/pay/amount', { amount_fen: fen, title })
  }, [fen, pay, title])

  return (
    <main className={styles.page}>
      <NavBar title="在线缴费" />
      {!fen ? (
        <LoadError message="缴费链接不完整或金额有误，请向工作人员重新获取链接" />
      ) : (
        <MemberOnly reason="登录后缴费">
          <div className={styles.body}>
            <section className={`${styles.card} ${styles.center}`} aria-label="缴费信息">
              <p className={styles.productTitle}>{title}</p>
              <p className={styles.bigPrice}>{yuan(fen)}</p>
              <p className={styles.muted}>请核对金额与用途，如有疑问请先联系工作人员</p>
            </section>
            <PayFooter flow={flow} amountFen={fen} onPay={onPay} agreement="amount" />
          </div>
        </MemberOnly>
      )}
    </main>
  )
}
