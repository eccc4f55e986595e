import { formatYuan } from '#shared/money.ts'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { useOwnedCourse } from '#app/lib/owned-courses.ts'
import styles from './course-card.module.css'

type PriceFields = Pick<CourseCard, 'id' | 'price_fen' | 'original_price_fen' | 'is_free' | 'vip_free'>

/**
 * The price as a course card shows it: 免费, or ¥ with the crossed-out original price, and the VIP-free badge; a
 * course the signed-in member has bought shows 已购 instead (`owned` when the caller knows already, otherwise
 * asked in the browser with the other cards of the screen).
 */
export function CoursePrice({
  course,
  large = false,
  owned,
}: {
  course: PriceFields
  large?: boolean
  owned?: boolean
}) {
  const bought = useOwnedCourse(owned === undefined ? course.id : null)
  const className = large ? `${styles.price} ${styles.priceLarge}` : styles.price
  if (!course.is_free && (owned ?? bought))
    return (
      <span className={className}>
        <span className={styles.owned} data-testid="course-owned">
          已购
        </span>
      </span>
    )
  return (
    <span className={className}>
      {course.is_free ? (
        <span className={styles.free}>免费</span>
      ) : (
        <>
          {/* The ¥ sign is the amount's ::before (course-card.module.css): one element and text node fewer per card. */}
          <span className={styles.amount}>{formatYuan(course.price_fen)}</span>
          {course.original_price_fen && course.original_price_fen > course.price_fen ? (
            <s className={styles.original}>
              <span className="zx-visually-hidden">原价</span>
              {`¥${formatYuan(course.original_price_fen)}`}
            </s>
          ) : null}
        </>
      )}
      {course.vip_free && !course.is_free ? <span className={styles.vipBadge}>VIP免费</span> : null}
    </span>
  )
}
