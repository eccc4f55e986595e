import { Link, useSearchParams } from 'react-router'
import { CheckoutPanel } from '#app/components/checkout/checkout-panel.tsx'
import { useAskLogin } from '#app/components/checkout/checkout-parts.tsx'
import styles from '#app/components/checkout/checkout.module.css'
import { MemberOnly } from '#app/components/login-required/member-only.tsx'
import { NavBar } from '#app/components/nav-bar/nav-bar.tsx'
import { LoadError } from '#app/components/page-state/page-state.tsx'
import { useApiGet } from '#app/lib/use-api-get.ts'
import { useAuth, useHydrated } from '#app/lib/use-auth.ts'
import type { CourseDetail } from '#shared/api/catalogue.ts'
import { CoverImage } from '#app/components/cover-image/cover-image.tsx'

export function meta() {
  return [{ title: '确认订单 - 自学' }]
}

type CourseBrief = Pick<CourseDetail, 'id' | 'title' | 'cover' | 'teacher'>

/** Code 480: the member owns the course already. */
const COURSE_OWNED = 480

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
  const course = useApiGet<CourseBrief>(validId ? '/course' : null, { query: { id: courseId } }).data

  const back = validId ? `/course/${courseId}.html` : '/ke'
  return (
    <main className={styles.page}>
      <NavBar title="确认订单" backTo={back} />
      {!validId ? (
        <LoadError message="没有找到要购买的课程" />
      ) : (
        <MemberOnly reason="登录后即可购买课程">
          <div className={styles.body}>
            <CheckoutPanel
              previewPath="/pay/course/preview"
              query={{ course_id: courseId }}
              payPath="/pay/course"
              payBody={{ course_id: courseId }}
              onError={(code, message, retry) => (
                <>
                  <LoadError message={message} onRetry={code === COURSE_OWNED ? undefined : retry} />
                  <div className={styles.actions}>
                    <Link to={back} className={styles.linkButton}>
                      {code === COURSE_OWNED ? '去学习' : '返回课程'}
                    </Link>
                  </div>
                </>
              )}
            >
              {(preview) => (
                <section className={styles.card} aria-label="课程">
                  <div className={styles.product}>
                    {course?.cover ? (
                      <CoverImage className={styles.cover} src={course.cover} width={112} height={63} />
                    ) : null}
                    <div className={styles.productText}>
                      <p className={styles.productTitle}>{preview.title}</p>
                      {course?.teacher?.name ? <p className={styles.muted}>讲师：{course.teacher.name}</p> : null}
                    </div>
                  </div>
                </section>
              )}
            </CheckoutPanel>
          </div>
        </MemberOnly>
      )}
    </main>
  )
}
