import { useCallback, useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { PayBar, PayMethods, PriceLines, useAskLogin, usePayMethod } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { LoginRequired } from '#app/components/login-required/login-required.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError, Loading } from '#app/components/page-state/page-state.tsx'
import { NativeQr } from '#app/components/pay/native-qr.tsx'
import { usePay } from '#app/components/pay/use-pay.ts'
import { ApiError, api, errorMessage } from '#app/lib/api.ts'
import type { Preview } from '#app/lib/pay.ts'
import { toast } from '#app/lib/toast.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'

export function meta() {
  return [{ title: '确认订单 - 自学' }]
}

interface CourseBrief {
  id: number
  title: string
  cover: string
  teacher?: { name?: string } | null
}

type Load = { status: 'loading' } | { status: 'error'; message: string; owned: boolean } | { status: 'ready'; preview: Preview; course: CourseBrief | null }

/**
 * Order confirmation of a course (/course/coursePurchase?course_id=): the course, its price with the best coupon
 * preselected, points deduction, the payment method of this browser, the agreement, and the pay button.
 */
export default function CoursePurchase() {
  const [params] = useSearchParams()
  const courseId = Number(params.get('course_id'))
  const validId = Number.isInteger(courseId) && courseId > 0
  const hydrated = useHydrated()
  const { token } = useAuth()
  useAskLogin(hydrated, token)

  // undefined: the best coupon (the server's choice); 0: none.
  const [couponId, setCouponId] = useState<number | undefined>(undefined)
  const [usePoints, setUsePoints] = useState(false)
  const [agreed, setAgreed] = useState(false)
  const [load, setLoad] = useState<Load>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const { methods, method, setMethod } = usePayMethod()
  const { pay, paying, qr, closeQr } = usePay()

  useEffect(() => {
    if (!hydrated || !token || !validId) return
    const controller = new AbortController()
    const signal = controller.signal
    Promise.all([
      api.get<Preview>('/pay/course/preview', { course_id: courseId, coupon_id: couponId, points: usePoints ? 100_000_000 : 0 }, { quiet: true, signal }),
      api.get<CourseBrief>('/course', { id: courseId }, { quiet: true, signal }).catch(() => null),
    ])
      .then(([preview, course]) => setLoad({ status: 'ready', preview, course }))
      .catch((error: unknown) => {
        if (signal.aborted) return
        setLoad({ status: 'error', message: errorMessage(error, '订单信息加载失败'), owned: error instanceof ApiError && error.code === 480 })
      })
    return () => controller.abort()
  }, [hydrated, token, validId, courseId, couponId, usePoints, attempt])

  const onPay = useCallback(() => {
    if (load.status !== 'ready') return
    if (!agreed) {
      toast('请先阅读并同意《课程购买协议》')
      return
    }
    void pay('/pay/course', { course_id: courseId, pay_method: method, coupon_id: load.preview.coupon_id, points: load.preview.points })
  }, [agreed, courseId, load, method, pay])

  const back = validId ? `/course/${courseId}.html` : '/ke'
  return (
    <main className={styles.page}>
      <NavBar title="确认订单" backTo={back} />
      {!validId ? <LoadError message="没有找到要购买的课程" /> : null}
      {validId && !hydrated ? <Loading /> : null}
      {validId && hydrated && !token ? <LoginRequired reason="登录后即可购买课程" /> : null}
      {validId && hydrated && token && load.status === 'loading' ? <Loading /> : null}
      {validId && hydrated && token && load.status === 'error' ? (
        <>
          <LoadError message={load.message} onRetry={load.owned ? undefined : () => setAttempt((n) => n + 1)} />
          <div className={styles.actions}>
            <Link to={back} className={styles.linkButton}>
              {load.owned ? '去学习' : '返回课程'}
            </Link>
          </div>
        </>
      ) : null}
      {validId && hydrated && token && load.status === 'ready' ? (
        <div className={styles.body}>
          <section className={styles.card} aria-label="课程">
            <div className={styles.product}>
              {load.course?.cover ? <img className={styles.cover} src={load.course.cover} alt="" width={112} height={63} /> : null}
              <div className={styles.productText}>
                <p className={styles.productTitle}>{load.preview.title}</p>
                {load.course?.teacher?.name ? <p className={styles.muted}>讲师：{load.course.teacher.name}</p> : null}
              </div>
            </div>
          </section>
          <PriceLines preview={load.preview} coupon onCoupon={(id) => setCouponId(id)} usePoints={usePoints} onPoints={setUsePoints} />
          {load.preview.amount_fen > 0 ? <PayMethods methods={methods} value={method} onChange={setMethod} /> : null}
          <PayBar amountFen={load.preview.amount_fen} agreed={agreed} onAgree={setAgreed} paying={paying} onPay={onPay} />
        </div>
      ) : null}
      {qr ? <NativeQr order={qr} onClose={closeQr} /> : null}
    </main>
  )
}
