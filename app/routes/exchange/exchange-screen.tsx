import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, Loaded } from '#app/components/page-state/page-state.tsx'
import { api, errorMessage } from '#app/lib/api.ts'
import { toast } from '#app/lib/toast.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { ExchangeResult, UnexchangedOrder } from '#server/modules/exchange/exchange.schema.ts'
import own from '#app/components/exchange/exchange.module.css'

/** One platform's exchange screen: where its order number is, which endpoints take it. */
export interface ExchangePlatform {
  title: string
  /** The sentence that says where to find the order number or voucher code. */
  guide: string
  picture: { src: string; alt: string }
  placeholder: string
  /** What the input asks for: "订单号或券码" on Douyin (vouchers too), "订单号" elsewhere. */
  label: string
  /** POST endpoint (spec 7) and its NotExchange list. */
  exchangePath: string
  unexchangedPath: string
  /** This screen's own path (sign-in comes back here). */
  path: string
}

function Result({ result }: { result: ExchangeResult }) {
  return (
    <section className={styles.card} aria-label="兑换结果" data-testid="exchange-result">
      <h2 className={styles.cardTitle}>{result.already ? '你已兑换过这个订单' : '兑换成功'}</h2>
      {result.courses.map((c) => (
        <div key={c.id} className={own.course}>
          <img className={own.cover} src={c.cover} alt="" loading="lazy" />
          <span className={own.courseTitle}>{c.title}</span>
          <Link className={styles.linkButton} to={`/course/${c.id}.html`}>
            开始学习
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

/** The exchange itself: one input, one button, the result and the member's unexchanged orders. */
function ExchangeForm({ platform }: { platform: ExchangePlatform }) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [results, setResults] = useState<ExchangeResult[]>([])
  const pending = useApiGet<{ list: UnexchangedOrder[] }>(platform.unexchangedPath, {
    member: true,
    errorText: '待兑换订单加载失败',
  })

  const exchange = async (orderNos: string[]) => {
    setBusy(true)
    const done: ExchangeResult[] = []
    try {
      for (const order_no of orderNos) done.push(await api.post<ExchangeResult>(platform.exchangePath, { order_no }))
    } catch {
      // The server's message is already on screen (the api wrapper's toast).
    } finally {
      setBusy(false)
      if (done.length > 0) {
        setResults(done)
        pending.reload()
      }
    }
    return done
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!text.trim()) return toast(`请输入${platform.label}`)
    if ((await exchange([text])).length > 0) setText('')
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
        <Result key={`${r.platform}:${r.order_id}`} result={r} />
      ))}
      <section className={styles.card} aria-label="待兑换订单">
        <h2 className={styles.cardTitle}>用你的手机号购买、还没兑换的订单</h2>
        <Loaded of={pending}>
          {(data) =>
            data.list.length === 0 ? (
              <Empty message="没有待兑换的订单" />
            ) : (
              <>
                {data.list.map((o) => (
                  <div key={`${o.platform}:${o.order_id}`} className={own.order}>
                    <div>{o.lines.map((l) => l.product_name).join('、')}</div>
                    <div className={styles.muted}>订单号 {o.order_id}</div>
                  </div>
                ))}
                <button
                  type="button"
                  className={styles.button}
                  disabled={busy}
                  onClick={() =>
                    void exchange(data.list.map((o) => o.order_id)).catch((err: unknown) =>
                      toast(errorMessage(err, '兑换失败')),
                    )
                  }
                >
                  全部兑换
                </button>
              </>
            )
          }
        </Loaded>
      </section>
    </>
  )
}

/** The course a landing page sent the buyer here to exchange (`?course_id=`). */
function CourseInContext({ course }: { course: ContextCourse }) {
  return (
    <section className={styles.card} aria-label="要兑换的课程" data-testid="exchange-course">
      <h2 className={styles.cardTitle}>要兑换的课程</h2>
      <div className={own.course}>
        <img className={own.cover} src={course.cover} alt="" />
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
  const back = course ? `${platform.path}?course_id=${course.id}` : platform.path
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
