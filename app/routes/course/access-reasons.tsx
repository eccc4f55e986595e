import { beijingDayAndTime } from '#app/lib/beijing-format.ts'
import { useApiGet } from '#app/lib/use-api-get.ts'
import type { CourseAccessWhy } from '#shared/api/access-why.ts'
import styles from './access-reasons.module.css'

const until = (iso: string | null) => (iso ? `，有效期至 ${beijingDayAndTime(new Date(iso))}` : '')

/**
 * "Why do I have this course, why no longer" (GET /api/course/access/why), for a signed-in member who has or had
 * a grant: each grant that opens it (通过兑换码获得, 抖店订单兑换, 会员免费…) and each taken back, with why (a
 * platform refund, a revoked code). Nothing for visitors, nor when a free course is all there is to say.
 */
export function AccessReasons({ courseId }: { courseId: number }) {
  const { data } = useApiGet<CourseAccessWhy>('/course/access/why', { query: { course_id: courseId }, member: true })
  if (!data) return null
  const grants = data.grants.filter((g) => g.source !== 'free_course')
  if (grants.length === 0 && data.ended.length === 0) return null
  return (
    <section className={styles.box} aria-labelledby="access-why-title" data-testid="access-why">
      <h2 id="access-why-title" className={styles.title}>
        {grants.length > 0 ? '你可以学习本课程' : '你已不能学习本课程'}
      </h2>
      <ul className={styles.list}>
        {grants.map((g, i) => (
          <li key={`g${i}`} className={styles.item}>
            <span className={`${styles.label} ${styles.granted}`}>{g.label}</span>
            {g.detail ? `（${g.detail}）` : ''}
            {until(g.expires_at)}
          </li>
        ))}
        {data.ended.map((e, i) => (
          <li key={`e${i}`} className={`${styles.item} ${styles.ended}`}>
            <span className={styles.label}>
              {e.kind === 'revoked' ? '已收回' : '已到期'}：{e.label}
            </span>
            {e.detail ? `（${e.detail}）` : ''}，<span className={styles.reason}>{e.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
