import { useState, type FormEvent } from 'react'
import styles from '#app/components/checkout/checkout.module.css'
import { ExchangeResultCard } from '#app/components/exchange/exchange-result.tsx'
import own from '#app/components/exchange/exchange.module.css'
import { UnexchangedOrders } from '#app/components/exchange/unexchanged-orders.tsx'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { api } from '#app/lib/api.ts'
import { toast } from '#app/lib/toast.ts'
import type { ExchangeResult } from '#server/modules/exchange/exchange.schema.ts'
import type { ExchangeShop } from '#shared/api/exchange-shops.ts'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/** One platform's exchange screen: where its order number is, and its shop (endpoints and page). */
export interface ExchangePlatform {
  title: string
  /** The sentence that says where to find the order number or voucher code. */
  guide: string
  picture: { src: string; alt: string }
  placeholder: string
  /** What the input asks for: "订单号或券码" on Douyin (vouchers too), "订单号" elsewhere. */
  label: string
  /** The shop (shared/api/exchange-shops.ts): its POST endpoint (spec 7), NotExchange list and page. */
  shop: ExchangeShop
}

const studyLabel = '开始学习'

/** The exchange itself: one input, one button, the result and the member's unexchanged orders on this shop. */
function ExchangeForm({ platform }: { platform: ExchangePlatform }) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [results, setResults] = useState<ExchangeResult[]>([])
  // Each exchange made here asks the list below again.
  const [exchanged, setExchanged] = useState(0)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!text.trim()) return toast(`请输入${platform.label}`)
    setBusy(true)
    try {
      const done = await api.post<ExchangeResult>(platform.shop.exchangePath, { order_no: text })
      setResults([done])
      setExchanged((n) => n + 1)
      setText('')
    } catch {
      // The server's message is already on screen (the api wrapper's toast).
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <form className={`${styles.card} ${own.form}`} onSubmit={(e) => void submit(e)}>
        <label htmlFor="order-no" className={styles.cardTitle}>
          {platform.label}
        </label>
        <input
          id="order-no"
          className={own.input}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={platform.placeholder}
          autoComplete="off"
          enterKeyHint="done"
        />
        <button type="submit" className={styles.button} disabled={busy}>
          {busy ? '兑换中…' : '兑换课程'}
        </button>
      </form>
      {results.map((r) => (
        <ExchangeResultCard key={`${r.platform}:${r.order_id}`} result={r} studyLabel={studyLabel} />
      ))}
      <UnexchangedOrders
        shops={[platform.shop]}
        title="用你的手机号购买、还没兑换的订单"
        version={exchanged}
        studyLabel={studyLabel}
      />
    </>
  )
}

/** The course a landing page sent the buyer here to exchange (`?course_id=`). */
function CourseInContext({ course }: { course: ContextCourse }) {
  return (
    <section className={styles.card} aria-label="要兑换的课程" data-testid="exchange-course">
      <h2 className={styles.cardTitle}>要兑换的课程</h2>
      <div className={own.course}>
        <CoverImage className={own.cover} src={course.cover} sizes="96px" />
        <span className={own.courseTitle}>{course.title}</span>
      </div>
    </section>
  )
}

type ContextCourse = { id: number; title: string; cover: string }

/**
 * A /data/* screen (issue 14 §3): a sentence and a picture on where the order number is, then the exchange; with
 * the course a landing page sent the buyer for, that course first (and sign-in comes back to it).
 */
export function ExchangeScreen({ platform, course }: { platform: ExchangePlatform; course?: ContextCourse | null }) {
  const back = course ? `${platform.shop.page}?course_id=${course.id}` : platform.shop.page
  return (
    <main className={styles.page}>
      <NavBar title={platform.title} backTo="/mine" />
      <div className={styles.body}>
        {course ? <CourseInContext course={course} /> : null}
        <section className={styles.card} aria-label="订单号在哪里">
          <p className={own.guide}>{platform.guide}</p>
          <img className={own.picture} src={platform.picture.src} alt={platform.picture.alt} width={320} height={200} />
        </section>
        <MemberOnly reason="登录后兑换课程" target={back}>
          <ExchangeForm platform={platform} />
        </MemberOnly>
      </div>
    </main>
  )
}
