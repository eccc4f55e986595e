import { Link } from 'react-router'
import type { CourseCard } from '#shared/api/catalogue.ts'
import { formatYuan } from '#shared/money.ts'
import { COURSE_TYPE_LABEL, formatCount } from '#app/components/course-card/course-format.ts'

type PriceFields = Pick<CourseCard, 'is_free' | 'price_fen' | 'original_price_fen' | 'vip_free'>

/**
 * A course card as plain markup, showing what the app's card shows: its rank in a ranking, the cover with the
 * course type (unless a series), the title, the teacher (rows only) and learners, and the price.
 */
export function Card({ course, rank, tile = false }: { course: CourseCard; rank?: number; tile?: boolean }) {
  return (
    <Link to={`/course/${course.id}.html`}>
      {rank !== undefined ? <i>{rank}</i> : null}
      <img src={course.cover} alt="" width={320} height={180} />
      {course.type !== 'series' ? <i>{COURSE_TYPE_LABEL[course.type]}</i> : null}
      <b>{course.title}</b>
      <small>
        {tile || !course.teacher_name ? '' : `${course.teacher_name} `}
        {formatCount(course.student_count)}人学过
      </small>
      <Price course={course} />
    </Link>
  )
}

/** 免费, or ¥ with the crossed-out original price, and VIP免费. */
export function Price({ course }: { course: PriceFields }) {
  if (course.is_free) return <em>免费</em>
  const original = course.original_price_fen ?? 0
  return (
    <em>
      ¥{formatYuan(course.price_fen)}
      {original > course.price_fen ? <s>原价¥{formatYuan(original)}</s> : null}
      {course.vip_free ? ' VIP免费' : ''}
    </em>
  )
}

export function Cards({
  courses,
  ranked = false,
  tiles = false,
}: {
  courses: CourseCard[]
  ranked?: boolean
  tiles?: boolean
}) {
  return (
    <ul>
      {courses.map((c, i) => (
        <li key={c.id}>
          <Card course={c} rank={ranked ? i + 1 : undefined} tile={tiles} />
        </li>
      ))}
    </ul>
  )
}
