import { useCallback, useState } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Route } from './+types/credit-pay'
import styles from '#app/components/checkout/checkout.module.css'
import { readById } from '#app/components/course-data/catalogue-loader.server.ts'
import { CardRow } from '#app/components/checkout/card-row.tsx'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { Empty, LoadError, Loaded } from '#app/components/page-state/page-state.tsx'
import { usePay } from '#app/components/pay/use-pay.ts'
import { yuan } from '#app/lib/pay.ts'
import { services } from '#app/lib/services-context.ts'
import { toast } from '#app/lib/toast.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import { AgreementCheck, useAskLogin } from '#app/components/checkout/checkout-parts.tsx'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

/**
 * /course/creditPay/{id}: a course that has a points price, exchanged for points (POST /pay/course, pay_method
 * points). /course/creditPay: every course that can be exchanged.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const s = services(context)
  if (params.id === undefined) return { course: null, courses: await s.catalogue.pointsCourses() }
  const course = await readById(params.id, '课程不存在', (id) => s.catalogue.courseDetail(id))
  return {
    course: {
      id: course.id,
      title: course.title,
      cover: course.cover,
      teacher: course.teacher?.name ?? null,
      price_fen: course.price_fen,
      is_free: course.is_free,
      points_price: course.points_price,
    },
    courses: [],
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData?.course ? `积分兑换 · ${loaderData.course.title} - 自学` : '积分兑换 - 自学' },
    { name: 'robots', content: 'noindex' },
  ]
}

type PointsCourse = Awaited<ReturnType<typeof loader>>['courses'][number]

/** The courses that can be had for points, each with its points price, leading to its exchange page. */
function PointsCourses({ courses }: { courses: PointsCourse[] }) {
  return (
    <main className={styles.page}>
      <NavBar title="积分兑换" backTo="/points" />
      <div className={styles.body}>
        {courses.length === 0 ? (
          <Empty message="暂时没有可以用积分兑换的课程" />
        ) : (
          <section className={styles.card} aria-label="可兑换课程">
            {courses.map((c) => (
              <Link key={c.id} to={`/course/creditPay/${c.id}`} className={`${styles.product} ${styles.productLink}`}>
                <CoverImage loading="lazy" className={styles.cover} src={c.cover} width={112} height={63} />
                <span className={styles.productText}>
                  <span className={styles.productTitle}>{c.title}</span>
                  <span className={styles.price}>{c.points_price} 积分</span>
                </span>
              </Link>
            ))}
          </section>
        )}
      </div>
    </main>
  )
}

const TERMS =
  '兑换成功后即可学习这门课程，所用积分从余额中扣除。兑换 7 天内、且课程观看不足 20% 时可申请退回，积分原路返还。'

export default function CreditPayPage() {
  const { course, courses } = useLoaderData<typeof loader>()
  return course ? <CreditPay key={course.id} course={course} /> : <PointsCourses courses={courses} />
}

function CreditPay({ course }: { course: NonNullable<Awaited<ReturnType<typeof loader>>['course']> }) {
  const hydrated = useHydrated()
  const { token } = useAuth()
  useAskLogin(hydrated, token)
  const [agreed, setAgreed] = useState(false)
  const { pay, paying } = usePay()
  const price = course.points_price
  const balance = useApiGet<{ balance: number }>(price === null ? null : '/points', {
    member: true,
    query: { limit: 1 },
    errorText: '积分余额加载失败',
  })

  const onExchange = useCallback(() => {
    if (!agreed) {
      toast('请先阅读并同意《积分兑换说明》')
      return
    }
    void pay('/pay/course', { course_id: course.id, pay_method: 'points' })
  }, [agreed, course.id, pay])

  const back = `/course/${course.id}.html`
  return (
    <main className={styles.page}>
      <NavBar title="积分兑换" backTo={back} />
      <div className={styles.body}>
        <section className={styles.card} aria-label="课程">
          <div className={styles.product}>
            <CoverImage className={styles.cover} src={course.cover} width={112} height={63} />
            <div className={styles.productText}>
              <p className={styles.productTitle}>{course.title}</p>
              {course.teacher ? <p className={styles.muted}>讲师：{course.teacher}</p> : null}
              {!course.is_free && course.price_fen > 0 ? (
                <p className={styles.muted}>现金价 {yuan(course.price_fen)}</p>
              ) : null}
            </div>
          </div>
        </section>
        {price === null ? (
          <>
            <LoadError message="这门课程不支持积分兑换" />
            <div className={styles.actions}>
              <Link to={back} className={styles.linkButton}>
                返回课程
              </Link>
            </div>
          </>
        ) : (
          <MemberOnly reason="登录后即可用积分兑换课程">
            <Loaded of={balance}>
              {({ balance: points }) => (
                <>
                  <section className={styles.card} aria-label="积分">
                    <CardRow label="兑换所需" price>
                      {price} 积分
                    </CardRow>
                    <CardRow label="我的积分">{points} 积分</CardRow>
                    {points < price ? (
                      <div className={styles.row}>
                        <span className={styles.muted}>还差 {price - points} 积分，购买课程可以赚积分</span>
                        <Link to="/points" className={styles.textButton}>
                          积分明细
                        </Link>
                      </div>
                    ) : null}
                  </section>
                  <AgreementCheck agreed={agreed} onAgree={setAgreed}>
                    <label htmlFor="agree">我已阅读并同意《积分兑换说明》：{TERMS}</label>
                  </AgreementCheck>
                  <div className={styles.bar}>
                    <span className={styles.barTotal}>
                      需 <span className={styles.bigPrice}>{price}</span> 积分
                    </span>
                    <button
                      type="button"
                      className={styles.button}
                      disabled={paying || points < price}
                      onClick={onExchange}
                    >
                      {paying ? '正在兑换…' : points >= price ? '确认兑换' : '积分不足'}
                    </button>
                  </div>
                </>
              )}
            </Loaded>
          </MemberOnly>
        )}
      </div>
    </main>
  )
}
